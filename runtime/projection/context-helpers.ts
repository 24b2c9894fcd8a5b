// A handler's context as the revision it was written against has it, for a server of another
// revision: each helper that sends a request to the client (`elicit`, `createMessage`, …, named in
// the written-for revision's `PROJECTION.helpers`) goes to `request` instead; everything else is
// the context's own.

/** Sends one of the handler's requests to the client, as the serving revision can. */
export type HelperRequest = (method: string, params: unknown, options: unknown) => Promise<unknown>;

export function withHelpers(
  context: unknown,
  helpers: { readonly [name: string]: string },
  request: HelperRequest,
): unknown {
  const isHelper = (key: string | symbol): key is string => typeof key === "string" && Object.hasOwn(helpers, key);
  return new Proxy(context as object, {
    get(on, key) {
      if (isHelper(key)) {
        const method = helpers[key]!;
        return (params?: unknown, options?: unknown) => request(method, params, options);
      }
      return Reflect.get(on, key, on) as unknown;
    },
    has: (on, key) => isHelper(key) || Reflect.has(on, key),
  });
}
