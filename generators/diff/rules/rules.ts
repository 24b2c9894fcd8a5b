// rules/: the judgement over the structural diff (compare/) and the report it makes: one rule per
// fact (classify.ts), the sides that must act (carriers.ts), the findings (judge.ts), items and
// highlights, and the report's JSON shape (findings.ts).
// This file: the breaking-change rules: one id per kind of structural change, each with a fixed
// severity and the role whose code breaks. docs/diff-rules.md documents this table (a test keeps
// the two in step); classify.ts picks the rule for each structural change and turns roles into
// sides.

/** A rule's verdict, the same for every finding under it. */
export type Severity = "breaking" | "warning" | "info";

/**
 * Whose code, built on the old revision, must act. Roles become sides per finding:
 * `sender`/`receiver` by the messages that carry the changed data (a client→server request's
 * params are sent by the client; its result by the server), `caller`/`callee` by the
 * method's direction.
 */
export type Role = "sender" | "receiver" | "caller" | "callee" | "both" | "none";

export interface Rule {
  severity: Severity;
  breaks: Role;
  /** One line for the rule table and the reports. */
  summary: string;
  /** The schema says the same thing differently: no message and no name code uses changes. */
  respelling?: true;
}

const rule = (severity: Severity, breaks: Role, summary: string): Rule => ({ severity, breaks, summary });
const respelling = (summary: string): Rule => ({ severity: "info", breaks: "none", summary, respelling: true });

export const RULES = {
  // Methods and notifications
  REQUEST_ADDED: rule("info", "none", "new request, gated by a capability the receiver declares"),
  REQUEST_ADDED_UNGATED: rule(
    "breaking",
    "callee",
    "new request that no capability gates: every receiver must handle it",
  ),
  REQUEST_REMOVED: rule("breaking", "caller", "request removed: callers get method-not-found"),
  NOTIFICATION_ADDED: rule("info", "none", "new notification; receivers that ignore it lose nothing they had"),
  NOTIFICATION_REMOVED: rule("breaking", "receiver", "notification removed: receivers that wait for it never get it"),
  METHOD_DIRECTION_CHANGED: rule("breaking", "both", "method now travels in the other direction only"),
  METHOD_KIND_CHANGED: rule("breaking", "both", "request became a notification or the reverse"),
  REQUEST_DELIVERY_CHANGED: rule(
    "breaking",
    "both",
    "request delivered differently (own message ↔ inside an input-required result)",
  ),
  REQUEST_GATED: rule(
    "breaking",
    "both",
    "request now gated by a capability: callees must declare it, callers must check it",
  ),
  REQUEST_UNGATED: rule("breaking", "callee", "request no longer gated: every receiver must handle it"),
  REQUEST_GATE_CHANGED: rule("breaking", "both", "request gated by a different capability"),
  NOTIFICATION_GATE_CHANGED: rule(
    "warning",
    "both",
    "notification gated by a different capability, or no longer / newly gated",
  ),
  RESULT_WIDENED: rule("breaking", "caller", "result admits values it did not: callers must handle them"),
  RESULT_NARROWED: rule("breaking", "callee", "result admits fewer values: callees may send what is no longer valid"),
  RESULT_CHANGED: rule("breaking", "both", "result type changed incompatibly"),
  RESULT_EQUIVALENT: respelling("result named differently, same structure"),
  // Types
  TYPE_ADDED: rule("info", "none", "new type"),
  TYPE_REMOVED: rule(
    "warning",
    "both",
    "type removed: code naming it breaks; wire effects are reported where it was used",
  ),
  TYPE_RENAMED: rule(
    "warning",
    "both",
    "type renamed (equal or near-equal structure); differences are reported as field changes",
  ),
  TYPE_EXTRACTED: respelling("new named type for what was written inline (or as an equivalent type) before"),
  TYPE_INLINED: rule("warning", "both", "named type removed, its structure now written inline"),
  TYPE_WIDENED: rule("breaking", "receiver", "type admits values it did not (e.g. interface became a union)"),
  TYPE_NARROWED: rule("breaking", "sender", "type admits fewer values"),
  TYPE_CHANGED: rule("breaking", "both", "type changed incompatibly"),
  TYPE_FORM_CHANGED: rule("warning", "both", "interface ↔ union switch with no effect on the messages that carry it"),
  UNION_MEMBER_ADDED: rule("breaking", "receiver", "union gained a member: receivers must handle it"),
  UNION_MEMBER_REMOVED: rule("breaking", "sender", "union lost a member: senders may still send it"),
  UNREFERENCED_UNION_CHANGED: respelling(
    "a union nothing refers to (it only lists types, like ClientRequest) gained or lost a member",
  ),
  ENUM_MEMBER_ADDED: rule("breaking", "receiver", "literal union gained a value: exhaustive receivers break"),
  ENUM_MEMBER_REMOVED: rule("breaking", "sender", "literal union lost a value: senders may still send it"),
  OPEN_ENUM_MEMBER_ADDED: rule(
    "info",
    "none",
    "known value added to an open union (it also admits any string or number)",
  ),
  OPEN_ENUM_MEMBER_REMOVED: rule("info", "none", "known value removed from an open union (still admitted)"),
  // Fields
  FIELD_ADDED_OPTIONAL: rule("info", "none", "optional field added"),
  FIELD_ADDED_REQUIRED: rule("breaking", "sender", "required field added: senders built on the old revision omit it"),
  FIELD_REMOVED_OPTIONAL: rule(
    "warning",
    "both",
    "optional field removed: senders' values are ignored, receivers stop getting it",
  ),
  FIELD_REMOVED_REQUIRED: rule("breaking", "receiver", "required field removed: receivers that read it break"),
  FIELD_BECAME_REQUIRED: rule("breaking", "sender", "optional field became required"),
  FIELD_BECAME_OPTIONAL: rule(
    "breaking",
    "receiver",
    "required field became optional: receivers must handle its absence",
  ),
  FIELD_TYPE_WIDENED: rule("breaking", "receiver", "field type admits values it did not"),
  FIELD_TYPE_NARROWED: rule("breaking", "sender", "field type admits fewer values"),
  FIELD_TYPE_CHANGED: rule("breaking", "both", "field type changed incompatibly"),
  FIELD_TYPE_EQUIVALENT: respelling("field type rewritten as an equivalent type"),
  FIELD_MOVED: respelling("field now declared on another type (e.g. a new base); same structure"),
  ENVELOPE_FIELD_DECLARED: respelling(
    "message type now (or no longer) declares a JSON-RPC envelope field it always carried",
  ),
  CONSTRAINT_TIGHTENED: rule("breaking", "sender", "value constraint tightened (format, bound, integer-only, …)"),
  CONSTRAINT_LOOSENED: rule(
    "breaking",
    "receiver",
    "value constraint loosened: receivers may get values they never had to handle",
  ),
  CONSTRAINT_CHANGED: rule("breaking", "both", "value constraint changed both ways"),
  // Capabilities
  CAPABILITY_ADDED: rule("info", "none", "new capability (or sub-capability) a peer may declare"),
  CAPABILITY_REMOVED: rule("warning", "both", "capability removed: declarers must stop, checkers will never see it"),
  // Markers, on any kind of item
  DEPRECATED: rule("warning", "both", "marked @deprecated: stop sending and relying on it"),
  UNDEPRECATED: rule("info", "none", "@deprecated removed"),
  MADE_INTERNAL: respelling("marked @internal (no longer part of the published schema reference)"),
  MADE_PUBLIC: respelling("@internal removed"),
  // Constants
  CONSTANT_ADDED: rule("info", "none", "new constant"),
  CONSTANT_REMOVED: rule("warning", "both", "constant removed"),
  CONSTANT_CHANGED: rule("breaking", "both", "constant value changed"),
  ERROR_CODE_ADDED: rule("info", "none", "new error code"),
  ERROR_CODE_REMOVED: rule("warning", "both", "error code removed"),
  ERROR_CODE_CHANGED: rule("breaking", "both", "error code value changed"),
  PROTOCOL_VERSION_CHANGED: rule("warning", "both", "protocol version string changed: peers negotiate the new version"),
} satisfies Record<string, Rule>;

export type RuleId = keyof typeof RULES;

export const RULE_IDS = Object.keys(RULES) as RuleId[];
