// The environment of a program tkt starts for the user (the editor, the pager, the browser): the
// user's own, without tkt's secrets. Such a program has no use for them, and a GUI browser lives
// on after tkt holding what it was given (README, Environment and files). `watch --exec` keeps
// them: a user's command may run tkt itself.
const SECRETS = ['TKT_TOKEN', 'TKT_PASSWORD'];

export function childEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  const copy = { ...env };
  for (const name of SECRETS) delete copy[name];
  return copy;
}
