// The host's ids: `<server>__<name>` for tools and prompts, `<server>__<uri>` for resources and
// `<server>__<uriTemplate>` for resource templates. The mapping is injective because a server name
// never contains "__" and never ends with "_": the first "__" of an id always ends the server name,
// whatever the name after it contains. Ids stay stable across restarts and need no table to route.

export const SEPARATOR = "__";

const SERVER_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9.-]|_(?!_))*$/;

/** Why a server name cannot be used, or undefined when it can. */
export function serverNameProblem(name: string): string | undefined {
  if (SERVER_NAME.test(name) && !name.endsWith("_")) return undefined;
  return (
    `server name ${JSON.stringify(name)} must start with a letter or digit, use only letters, digits, ` +
    `".", "-" and single "_", and not end with "_" (the host joins it to item names with "${SEPARATOR}")`
  );
}

export function qualify(server: string, name: string): string {
  return `${server}${SEPARATOR}${name}`;
}

/** The server and item name an id stands for; undefined when it has no server part. */
export function splitId(id: string): { server: string; name: string } | undefined {
  const at = id.indexOf(SEPARATOR);
  if (at <= 0) return undefined;
  return { server: id.slice(0, at), name: id.slice(at + SEPARATOR.length) };
}
