// A set of values under a given equality, in about linear time: values are bucketed by a coarse key that equal values
// always share (numbers by their float value, containers by their contents), and compared only within a bucket.

import { decimalToNumber } from "./decimal.js";
import { Closure, Datetime, Decimal, Duration, RecordId, Regex, Table, Uuid, isValueObject } from "./types.js";
import type { Value } from "./types.js";

/** Equal values (1 = 1.0 = 1dec, objects key by key) get the same key; unequal ones may too (a shared bucket). */
export function bucketKey(v: Value): string {
  if (v === undefined) return "n";
  if (v === null) return "N";
  switch (typeof v) {
    case "boolean":
      return v ? "T" : "F";
    case "bigint":
    case "number":
      return `#${Number(v)}`;
    case "string":
      return `s${v}`;
  }
  if (v instanceof Decimal) return `#${decimalToNumber(v)}`;
  if (Array.isArray(v)) return `[${v.map(bucketKey).join(",")}]`;
  if (v instanceof Duration) return `d${v.nanos}`;
  if (v instanceof Datetime) return `t${v.nanos}`;
  if (v instanceof Uuid) return `u${v.text}`;
  if (v instanceof RecordId) return `r${v.table}:${bucketKey(v.id as Value)}`;
  if (v instanceof Table) return `b${v.name}`;
  if (v instanceof Regex) return `/${v.source}`;
  if (v instanceof Closure) return `c${v.text}`;
  if (isValueObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${bucketKey(v[k])}`).join(",")}}`;
  return "x";
}

export class ValueSet {
  private readonly buckets = new Map<string, Value[]>();

  /** A set (`add`) or a multiset (`put` / `take`) of `values` under `equals`; `key` must give equal values one key. */
  constructor(
    private readonly equals: (a: Value, b: Value) => boolean,
    values: readonly Value[] = [],
    private readonly keyOf: (v: Value) => string = bucketKey,
  ) {
    for (const v of values) this.put(v);
  }

  /** Adds `v` even when an equal value is in (a multiset). */
  put(v: Value): void {
    const key = this.keyOf(v);
    const bucket = this.buckets.get(key);
    if (bucket) bucket.push(v);
    else this.buckets.set(key, [v]);
  }

  has(v: Value): boolean {
    return this.buckets.get(this.keyOf(v))?.some((x) => this.equals(x, v)) ?? false;
  }

  /** Adds `v` unless an equal value is in; true when added. */
  add(v: Value): boolean {
    const key = this.keyOf(v);
    const bucket = this.buckets.get(key);
    if (!bucket) this.buckets.set(key, [v]);
    else if (bucket.some((x) => this.equals(x, v))) return false;
    else bucket.push(v);
    return true;
  }

  /** Removes one value equal to `v`; true when one was there. */
  take(v: Value): boolean {
    const bucket = this.buckets.get(this.keyOf(v));
    const i = bucket?.findIndex((x) => this.equals(x, v)) ?? -1;
    if (i < 0) return false;
    bucket!.splice(i, 1);
    return true;
  }
}
