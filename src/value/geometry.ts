// GeoJSON-shaped objects as SurrealDB's parser reads an object literal: `{ type: 'Point', coordinates: [1, 2] }` is a
// geometry (a non-point geometry exports that way, so it imports back as one).
import type { Compat } from "./compat.js";
import { Decimal, Geometry, type Value, type ValueObject } from "./types.js";

type Coord = [number, number];

/**
 * The geometry `{ type, coordinates }` (`{ type: 'GeometryCollection', geometries }`) stands for, else undefined: exactly
 * those two keys, a GeoJSON type name, coordinates of numbers (decimals in 2.x only) in its shape (oracle 2.6.0 / 1.5.4).
 * Polygon rings are closed; a polygon needs a ring.
 */
export function geometryFromObject(o: ValueObject, compat: Compat): Geometry | undefined {
  const keys = Object.keys(o);
  if (keys.length !== 2 || typeof o["type"] !== "string") return undefined;
  if (o["type"] === "GeometryCollection") {
    const gs = o["geometries"];
    return Array.isArray(gs) && gs.every((g) => g instanceof Geometry) ? new Geometry("GeometryCollection", gs) : undefined;
  }
  const c = o["coordinates"];
  if (c === undefined) return undefined;
  const num = (v: Value): number | undefined =>
    typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : v instanceof Decimal && compat === 2 ? Number(v.text) : undefined;
  const point = (v: Value): Coord | undefined => {
    if (!Array.isArray(v) || v.length !== 2) return undefined;
    const [x, y] = [num(v[0]), num(v[1])];
    return x === undefined || y === undefined ? undefined : [x, y];
  };
  const line = (v: Value): Coord[] | undefined => every(v, point);
  const polygon = (v: Value): Coord[][] | undefined => {
    const rings = every(v, line);
    return rings && rings.length > 0 ? rings.map(closed) : undefined;
  };
  const shapes: Record<string, [Geometry["type"], (v: Value) => unknown]> = {
    Point: ["Point", point],
    LineString: ["LineString", line],
    Polygon: ["Polygon", polygon],
    MultiPoint: ["MultiPoint", line],
    MultiLineString: ["MultiLineString", (v) => every(v, line)],
    MultiPolygon: ["MultiPolygon", (v) => every(v, polygon)],
  };
  const shape = Object.hasOwn(shapes, o["type"]) ? shapes[o["type"]] : undefined;
  const coordinates = shape?.[1](c);
  return shape && coordinates !== undefined ? new Geometry(shape[0], coordinates) : undefined;
}

/** Each item of an array read by `f`, or undefined if `v` is no array or any item fails. */
function every<T>(v: Value, f: (x: Value) => T | undefined): T[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: T[] = [];
  for (const x of v) {
    const r = f(x);
    if (r === undefined) return undefined;
    out.push(r);
  }
  return out;
}

/** A ring ends where it starts. */
function closed(ring: Coord[]): Coord[] {
  if (ring.length === 0) return ring;
  const [first, last] = [ring[0]!, ring[ring.length - 1]!];
  return first[0] === last[0] && first[1] === last[1] ? ring : [...ring, first];
}
