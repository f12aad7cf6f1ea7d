// Environment variables as tkt reads them (README: Environment and files).

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The variable's value; undefined when it is unset, empty or blank: a CI secret or a shell
 * variable that is not set counts as unset, as gh and docker read theirs.
 */
export function envValue(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value.trim() === '' ? undefined : value;
}

/** For an error about what the variable would have given: whether it is set, but empty or blank. */
export function setButEmpty(env: Env, name: string): boolean {
  return env[name] !== undefined && envValue(env, name) === undefined;
}
