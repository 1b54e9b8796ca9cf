// Roles of system users and token actors: parsing (case-insensitive) and display (capitalised, as in RL claims).

import type { Role } from "../ast/nodes.js";
import { invalidRole } from "./errors.js";

const ROLES: Record<string, Role> = { owner: "OWNER", editor: "EDITOR", viewer: "VIEWER" };

/** `viewer|editor|owner` in any case; anything else is `IAM error: Invalid role '<x>'`. */
export function parseRole(text: string): Role {
  const role = ROLES[text.toLowerCase()];
  if (!role) throw invalidRole(text);
  return role;
}

/** Roles of a token-defined actor: the RL claim, or [Viewer] when absent. */
export function rolesFromClaim(rl: readonly string[] | undefined): Role[] {
  return rl === undefined ? ["VIEWER"] : rl.map(parseRole);
}

/** Display form: `Owner`, `Editor`, `Viewer`. */
export function roleDisplay(role: Role): string {
  return role.charAt(0) + role.slice(1).toLowerCase();
}

/** Exact membership, as SurrealDB's `has_role` (Owner does not "have" Viewer). */
export function hasRole(roles: readonly Role[], role: Role): boolean {
  return roles.includes(role);
}
