// How two value sets relate: the vocabulary shared by the type relation and the constraint
// comparison, and the basis of every widened/narrowed rule.

/** From the old revision's values to the new revision's. */
export type Relation = "same" | "wider" | "narrower" | "incompatible";

/** `oldInNew`: every old value is still valid; `newInOld`: every new value was already valid. */
export function relationOf(oldInNew: boolean, newInOld: boolean): Relation {
  if (oldInNew && newInOld) return "same";
  if (oldInNew) return "wider";
  if (newInOld) return "narrower";
  return "incompatible";
}
