import { describe, expect, it } from "vitest";
import { geometryFromObject } from "../../src/value/geometry.js";
import { Decimal, Geometry } from "../../src/value/types.js";

describe("geometryFromObject (GeoJSON-shaped object literals, oracle 2.6.0 / 1.5.4)", () => {
  it("reads each type in its shape, ints as numbers, and closes polygon rings", () => {
    expect(geometryFromObject({ type: "Point", coordinates: [1n, 2.5] }, 2)).toEqual(new Geometry("Point", [1, 2.5]));
    expect(geometryFromObject({ coordinates: [[1n, 2n]], type: "LineString" }, 2)).toEqual(new Geometry("LineString", [[1, 2]]));
    expect(geometryFromObject({ type: "Polygon", coordinates: [[[0n, 0n], [1n, 0n], [1n, 1n]]] }, 2)).toEqual(new Geometry("Polygon", [[[0, 0], [1, 0], [1, 1], [0, 0]]]));
    expect(geometryFromObject({ type: "MultiPoint", coordinates: [] }, 2)).toEqual(new Geometry("MultiPoint", []));
    const p = new Geometry("Point", [1, 2]);
    expect(geometryFromObject({ type: "GeometryCollection", geometries: [p] }, 1)).toEqual(new Geometry("GeometryCollection", [p]));
  });
  it("decimals in 2.x only", () => {
    expect(geometryFromObject({ type: "Point", coordinates: [1n, new Decimal("2")] }, 2)).toEqual(new Geometry("Point", [1, 2]));
    expect(geometryFromObject({ type: "Point", coordinates: [1n, new Decimal("2")] }, 1)).toBeUndefined();
  });
  it("anything else stays an object", () => {
    for (const o of [
      { type: "Point", coordinates: [1n] },
      { type: "Point", coordinates: [1n, "2"] },
      { type: "point", coordinates: [1n, 2n] },
      { type: "Point", coordinates: [1n, 2n], x: 1n },
      { type: "Polygon", coordinates: [] },
      { type: "LineString", geometries: [] },
      { type: "GeometryCollection", geometries: [1n] },
      { type: "toString", coordinates: [] },
    ]) {
      expect(geometryFromObject(o, 2), JSON.stringify(o, (_k, v) => (typeof v === "bigint" ? Number(v) : v))).toBeUndefined();
    }
  });
});
