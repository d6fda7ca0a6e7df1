import type { TrackGeometry } from './session-generator';

/** Reads one file of assets/tracks as text (node:fs on the server and in tests). */
export type ReadTrackFile = (file: string) => string;

interface GeoJson {
  features: { properties: { length?: number; Name?: string }; geometry: { coordinates: [number, number][] } }[];
}
interface ZaggyTrack {
  name: string;
  start_finish: { lat: number; lon: number };
  pts: { lat: number; lon: number }[];
}

function readGeoJson(read: ReadTrackFile, file: string): { points: [number, number][]; length?: number } {
  const data = JSON.parse(read(file)) as GeoJson;
  const feature = data.features[0]!;
  return { points: feature.geometry.coordinates.map(([lon, lat]) => [lat, lon]), length: feature.properties.length };
}

function readZaggy(read: ReadTrackFile, file: string): { points: [number, number][]; startFinish: [number, number] } {
  const data = JSON.parse(read(file)) as ZaggyTrack;
  return {
    points: data.pts.map((p) => [p.lat * 1e-7, p.lon * 1e-7]),
    startFinish: [data.start_finish.lat * 1e-7, data.start_finish.lon * 1e-7],
  };
}

/**
 * The real track geometries in assets/tracks (copied from shared/data/tracks; sources and
 * licences in assets/tracks/LICENSE-NOTES.md). Interlagos uses the F1 outline (closest to the
 * published 4,309 m) with the start/finish point of the zaggy.ai file; Silverstone and Monza the
 * F1 outlines with the track catalogue's points (assets/track-catalogue).
 */
export function trackGeometries(read: ReadTrackFile): TrackGeometry[] {
  const interlagos = readGeoJson(read, 'br-1940.geojson');
  const interlagosSf = readZaggy(read, 'f4024434a0da69a86ca21aeb4537483d--aut-dromo-de-interlagos.json').startFinish;
  const curitiba = readZaggy(read, 'd736234d177ae4e2ebf3ddf949f1f2e6--aut-dromo-internacional-de-curitiba.json');
  const silverstone = readGeoJson(read, 'gb-1948.geojson');
  const monza = readGeoJson(read, 'it-1922.geojson');
  return [
    { name: 'Interlagos', points: interlagos.points, startFinish: interlagosSf, officialLengthM: interlagos.length },
    { name: 'Curitiba', points: curitiba.points, startFinish: curitiba.startFinish },
    // Start/finish points from the track catalogue (Silverstone Circuit, Autodromo Nazionale di Monza):
    // generated laps start where the catalogue's gate times them.
    {
      name: 'Silverstone',
      points: silverstone.points,
      startFinish: [52.06828, -1.0235066],
      officialLengthM: silverstone.length,
    },
    { name: 'Monza', points: monza.points, startFinish: [45.6189809, 9.2811335], officialLengthM: monza.length },
  ];
}
