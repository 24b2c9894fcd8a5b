// The facts the rule checks run on, as generated code gives them (methods.ts `PROTOCOL_RULES`,
// from the model): which capability gates what, and how the revision spells the content the
// rules are about. Absent parts: the revision has nothing of the kind.

/** A capability: whose capabilities object holds it, and the path of keys to it. */
export interface CapabilityFact {
  readonly side: "client" | "server";
  readonly path: readonly string[];
}

/** A params field, or some of its values, that needs a capability of the receiver beyond the method's own. */
export interface ParamGateFact {
  readonly field: string;
  /** Only these values need it; absent: any value does. */
  readonly values?: readonly unknown[];
  /** The value a missing field stands for. */
  readonly absentAs?: unknown;
  readonly capability: CapabilityFact;
  /** An empty object at the capability's parent declares it too (`elicitation: {}` is form mode). */
  readonly impliedByEmpty?: boolean;
  readonly rule: string;
}

export interface SamplingToolsFact {
  readonly request: string;
  readonly messages: string;
  readonly content: string;
  readonly use: { readonly type: string; readonly id: string };
  readonly result: { readonly type: string; readonly id: string };
  readonly capability: CapabilityFact;
  readonly toolChoice: {
    readonly field: string;
    readonly mode: string;
    readonly none: string;
    readonly required: string;
  };
  /** The result field saying why the model stopped, and the value saying the token limit cut it off. */
  readonly stopReason: { readonly field: string; readonly cutOff: string };
}

export interface RootUrisFact {
  readonly request: string;
  readonly list: string;
  readonly uri: string;
  readonly scheme: string;
}

export interface UrlElicitationFact {
  readonly request: string;
  readonly mode: { readonly field: string; readonly value: string };
  readonly id: string;
  readonly complete: string;
  readonly requiredError?: { readonly code: number; readonly data: string };
}

/** Media blocks whose MIME type field must be well formed, and where results carry them. */
export interface ContentMimeFact {
  readonly field: string;
  /** Request → the result fields leading to its content (arrays along the way stepped through). */
  readonly results: { readonly [method: string]: readonly string[] };
  readonly blocks: readonly { readonly type: string; readonly rule: string }[];
}

/** How a task keeps its creating request's progress token until its terminal status. */
export interface TaskProgressFact {
  /** The created-task result's field holding the task. */
  readonly created: string;
  readonly id: string;
  readonly status: string;
  readonly terminal: readonly string[];
  /** The notification reporting a task's status. */
  readonly notification: string;
  /** Requests whose result is a task with its status. */
  readonly results: readonly string[];
}

/** Results that ask for input (multi round-trip): how they are marked, and the requests that may get one. */
export interface InputRequiredFact {
  readonly marker: { readonly field: string; readonly value: unknown };
  readonly methods: readonly string[];
  readonly requests: string;
  readonly state: string;
}

/** The capabilities field (on either side) whose keys are extension identifiers. */
export interface ExtensionIdsFact {
  readonly field: string;
}

/** The result field saying what kind of result it is, and the kinds the core protocol defines. */
export interface ResultTypesFact {
  readonly field: string;
  readonly values: readonly string[];
}

/** The field of a cacheable result saying who may be served it, which every page of one list shares. */
export interface CacheScopeFact {
  readonly field: string;
}

export interface RuleFacts {
  /** Per direction, method → its gated params fields. */
  readonly paramGates?: {
    readonly [direction in "clientToServer" | "serverToClient"]?: {
      readonly [method: string]: readonly ParamGateFact[];
    };
  };
  readonly samplingTools?: SamplingToolsFact;
  readonly rootUris?: RootUrisFact;
  readonly urlElicitation?: UrlElicitationFact;
  readonly inputRequired?: InputRequiredFact;
  readonly contentMime?: ContentMimeFact;
  readonly taskProgress?: TaskProgressFact;
  readonly extensionIds?: ExtensionIdsFact;
  readonly resultTypes?: ResultTypesFact;
  readonly cacheScope?: CacheScopeFact;
}

/** Both sides' declared capabilities, as far as they are known. */
export interface Negotiated {
  readonly client: unknown;
  readonly server: unknown;
}
