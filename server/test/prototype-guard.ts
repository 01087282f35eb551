/**
 * Proves that nothing a request carried reached the shared prototypes (prototype pollution):
 * Object.prototype, Array.prototype and Function.prototype must keep exactly the own properties
 * they had when the guard was made, each with the same value, and a fresh object, array and
 * function must not answer any of the probe keys the test sent (`({}).polluted`).
 */

const GUARDED = [
  ['Object.prototype', Object.prototype],
  ['Array.prototype', Array.prototype],
  ['Function.prototype', Function.prototype],
] as const;

type Snapshot = Map<string, PropertyDescriptor | undefined>;

function snapshot(target: object): Snapshot {
  return new Map(
    Object.getOwnPropertyNames(target).map((name) => [name, Object.getOwnPropertyDescriptor(target, name)]),
  );
}

function sameDescriptor(a: PropertyDescriptor | undefined, b: PropertyDescriptor | undefined): boolean {
  return a?.value === b?.value && a?.get === b?.get && a?.set === b?.set && a?.writable === b?.writable;
}

export type PrototypeGuard = {
  /** Throws, naming what changed, when a prototype differs or a probe key answers. */
  assertUntouched(): void;
};

export function guardPrototypes(probeKeys: ReadonlyArray<string>): PrototypeGuard {
  const before = GUARDED.map(([name, target]) => ({ name, target, own: snapshot(target) }));
  return {
    assertUntouched() {
      const problems: string[] = [];
      for (const { name, target, own } of before) {
        const now = snapshot(target);
        for (const key of now.keys()) if (!own.has(key)) problems.push(`${name}.${key} was added`);
        for (const [key, descriptor] of own) {
          if (!now.has(key)) problems.push(`${name}.${key} was removed`);
          else if (!sameDescriptor(descriptor, now.get(key))) problems.push(`${name}.${key} was changed`);
        }
      }
      const fresh: Array<[string, unknown]> = [
        ['({})', {}],
        ['[]', []],
        ['function', () => {}],
      ];
      for (const key of probeKeys) {
        for (const [label, value] of fresh) {
          if ((value as Record<string, unknown>)[key] !== undefined)
            problems.push(`${label}.${key} is defined`);
        }
      }
      if (problems.length) throw new Error(`Prototype pollution: ${problems.join('; ')}`);
    },
  };
}
