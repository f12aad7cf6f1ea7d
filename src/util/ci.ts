/** The run is a CI job: `CI` set to anything but empty, "false" or "0" (as CI services set it). */
export function isCI(env: Readonly<Record<string, string | undefined>>): boolean {
  const value = env.CI;
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}
