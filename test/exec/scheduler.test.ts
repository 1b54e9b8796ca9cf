// The fair CPU scheduler with a hand-driven event loop and clock: one waiting slice per turn, round robin by identity
// then connection, and a lone slice runs at once.

import { describe, expect, it } from "vitest";
import { Scheduler, laneOf, type Lane } from "../../src/exec/scheduler.js";
import { ANONYMOUS, newSession } from "../../src/exec/session.js";

/** A scheduler whose turns run when the test says and whose clock the test moves. */
function driven(turnMs = 2) {
  const turns: (() => void)[] = [];
  let time = 0;
  const s = new Scheduler({ nextTurn: (fn) => turns.push(fn), now: () => time, turnMs });
  const ran: string[] = [];
  /** Ask for a slice named `name`; it records itself when granted. */
  const ask = (lane: Lane, name: string): void => {
    const wait = s.slice(lane);
    if (wait === undefined) ran.push(name);
    else void wait.then(() => ran.push(name));
  };
  /** One event-loop turn: the pending turn callback, then the microtasks it released. */
  const turn = async (): Promise<void> => {
    turns.shift()?.();
    await Promise.resolve();
    await Promise.resolve();
  };
  return { s, ran, ask, turn, turns, advance: (ms: number) => (time += ms) };
}

const lane = (identity: string, connection: string): Lane => ({ identity, connection });

describe("Scheduler", () => {
  it("runs a lone slice at once, and others started within the turn's time", () => {
    const { s, ran, ask, advance } = driven();
    ask(lane("a", "1"), "a1");
    advance(1);
    ask(lane("b", "1"), "b1");
    expect(ran).toEqual(["a1", "b1"]);
    expect(s.granted).toBe(2);
    expect(s.waiting).toBe(0);
  });

  it("past the turn's time a slice waits for the next turn, and each turn grants one", async () => {
    const { s, ran, ask, turn, advance } = driven();
    ask(lane("a", "1"), "a1");
    advance(10);
    ask(lane("a", "1"), "a2");
    ask(lane("b", "1"), "b1");
    expect(ran).toEqual(["a1"]);
    expect(s.waiting).toBe(2);
    // a1 ran at once, maybe in this very loop iteration: the first turn grants nothing
    await turn();
    expect(ran).toEqual(["a1"]);
    await turn();
    expect(ran).toEqual(["a1", "a2"]);
    await turn();
    expect(ran).toEqual(["a1", "a2", "b1"]);
    expect(s.waiting).toBe(0);
  });

  it("a new slice waits behind waiting ones even when the turn has time left", async () => {
    const { ran, ask, turn, advance } = driven();
    ask(lane("a", "1"), "a1");
    advance(10);
    ask(lane("a", "1"), "a2");
    await turn();
    await turn();
    // a fresh turn (time left), but b1 arrives after a3 queued
    advance(10);
    ask(lane("a", "1"), "a3");
    ask(lane("b", "1"), "b1");
    expect(ran).toEqual(["a1", "a2"]);
    await turn();
    await turn();
    expect(ran).toEqual(["a1", "a2", "a3", "b1"]);
  });

  it("serves identities in turn, however many slices one of them has waiting", async () => {
    const { ran, ask, turn, advance } = driven();
    ask(lane("x", "0"), "start");
    advance(10);
    for (let i = 0; i < 8; i++) ask(lane("heavy", "1"), `h${i}`);
    ask(lane("root", "2"), "root");
    for (let i = 0; i < 4; i++) await turn();
    // root's one slice comes second, not ninth
    expect(ran).toEqual(["start", "h0", "root", "h1"]);
  });

  it("serves an identity's connections in turn: one connection's 8 slices do not crowd out its other connection", async () => {
    const { ran, ask, turn, advance } = driven();
    ask(lane("x", "0"), "start");
    advance(10);
    for (let i = 0; i < 4; i++) ask(lane("mal", "A"), `A${i}`);
    ask(lane("mal", "B"), "B0");
    ask(lane("mal", "B"), "B1");
    ask(lane("ann", "C"), "C0");
    for (let i = 0; i < 8; i++) await turn();
    expect(ran).toEqual(["start", "A0", "C0", "B0", "A1", "B1", "A2", "A3"]);
  });

  it("after a turn that overran a slice (a long parse) leaves a few turns to I/O, then goes on", async () => {
    const { ran, ask, turn, advance } = driven();
    ask(lane("a", "1"), "a1");
    advance(10);
    ask(lane("a", "1"), "a2");
    ask(lane("a", "1"), "a3");
    await turn();
    await turn();
    expect(ran).toEqual(["a1", "a2"]);
    // a2 parses 100 ms: the next 2 turns grant nothing (and long turns of I/O alone add none)
    advance(100);
    for (let i = 0; i < 2; i++) {
      await turn();
      advance(100);
    }
    expect(ran).toEqual(["a1", "a2"]);
    await turn();
    expect(ran).toEqual(["a1", "a2", "a3"]);
  });

  it("goes idle when nothing waits, and the next slice starts a new turn at once", async () => {
    const { ran, ask, turn, turns, advance } = driven();
    ask(lane("a", "1"), "a1");
    advance(10);
    await turn();
    expect(turns).toHaveLength(0);
    advance(10);
    ask(lane("a", "1"), "a2");
    expect(ran).toEqual(["a1", "a2"]);
  });

  it("lanes: a signed-in identity shares one across connections; each anonymous connection is its own", () => {
    const actor = { level: "Record" as const, ns: "test", db: "test", id: "user:mal", roles: [] };
    const one = newSession({ actor });
    const two = newSession({ actor });
    expect(laneOf(one).identity).toBe(laneOf(two).identity);
    expect(laneOf(one).connection).not.toBe(laneOf(two).connection);
    const anon1 = newSession({ actor: ANONYMOUS });
    const anon2 = newSession({ actor: ANONYMOUS });
    expect(laneOf(anon1).identity).not.toBe(laneOf(anon2).identity);
  });
});
