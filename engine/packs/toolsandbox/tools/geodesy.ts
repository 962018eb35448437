// Distances on the Earth as upstream measures them: geopy's geodesic distance, i.e. Karney's
// algorithm (geographiclib) on the WGS-84 ellipsoid. geopy sets the ellipsoid up with its axis in
// kilometres, so the distance comes out in kilometres without a division.
import { Geodesic } from "geographiclib-geodesic";

const WGS84_KM = new Geodesic.Geodesic(6378.137, 1 / 298.257223563);

export function geodesicDistanceKm(latitude0: number, longitude0: number, latitude1: number, longitude1: number): number {
  const r = WGS84_KM.Inverse(latitude0, longitude0, latitude1, longitude1, Geodesic.DISTANCE);
  if (r.s12 === undefined) throw new Error("geodesic inverse returned no distance");
  return r.s12;
}
