// ast/: the aggregate functions (SurrealDB 1.5.4 and 2.6.0 alike): beside GROUP BY they are called once per group, on
// the array of their first argument's values; 1.5.4's parser takes them beside a path it does not group by.

export const AGGREGATES: ReadonlySet<string> = new Set([
  "array::distinct", "array::first", "array::flatten", "array::group", "array::last", "count",
  "math::bottom", "math::interquartile", "math::max", "math::mean", "math::median", "math::midhinge", "math::min", "math::mode",
  "math::nearestrank", "math::percentile", "math::spread", "math::stddev", "math::sum", "math::top", "math::trimean", "math::variance",
  "time::max", "time::min",
]);

/** Is this call an aggregate (names are case-insensitive: `COUNT()`)? */
export const isAggregate = (name: string): boolean => AGGREGATES.has(name.toLowerCase());
