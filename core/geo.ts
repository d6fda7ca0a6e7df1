/** Small geodesy helpers (pure). */
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

/** Deterministic PRNG (mulberry32). */
export function createRandom(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => {
    let u = 0;
    while (u === 0) u = next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
  };
  return { next, normal, int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)) };
}
