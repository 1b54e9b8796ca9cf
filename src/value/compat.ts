// The compat switch every value operation takes: 1 = SurrealDB 1.5.x, 2 = SurrealDB 2.x (default).
export type Compat = 1 | 2;
export interface CompatOpts { readonly compat?: Compat }
export function compatOf(opts: CompatOpts | undefined): Compat { return opts?.compat ?? 2; }
