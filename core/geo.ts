/** Geography (pure): distances on the Earth, a local projection, a closed outline's length. */
const EARTH_RADIUS_M = 6_371_008.8;

export function haversineM(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const toRad = Math.PI / 180;
  const dLat = (lat2 - lat1) * toRad;
  const dLon = (lon2 - lon1) * toRad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * toRad) * Math.cos(lat2 * toRad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Local tangent-plane projection around an origin (metres east, metres north). */
export function makeProjection(originLat: number, originLon: number) {
  const toRad = Math.PI / 180;
  const kx = Math.cos(originLat * toRad) * EARTH_RADIUS_M * toRad;
  const ky = EARTH_RADIUS_M * toRad;
  return {
    /** Metres east per degree of longitude, north per degree of latitude (for loops that project without making pairs). */
    kx,
    ky,
    originLat,
    originLon,
    toXY: (lat: number, lon: number): [number, number] => [(lon - originLon) * kx, (lat - originLat) * ky],
    toLatLon: (x: number, y: number): [number, number] => [originLat + y / ky, originLon + x / kx],
  };
}

/** Length of a closed polyline of [lat, lon] points, in metres. */
export function closedLengthM(points: readonly (readonly [number, number])[]): number {
  let sum = 0;
  for (let i = 0; i < points.length; i++) {
    const a = points[i]!;
    const b = points[(i + 1) % points.length]!;
    sum += haversineM(a[0], a[1], b[0], b[1]);
  }
  return sum;
}
