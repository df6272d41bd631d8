/**
 * What the build's own steps fail with: the references `make docs` writes from the code (tools/docs/), which refuse
 * a setting the code and the reference disagree on, and `make pack` (tools/pack/), which needs the native compiler
 * to emit the package's declarations. Each is an `Error`'s message that stops the step.
 */

/** The code reads the environment variables NAMES that the reference does not describe. */
export function variablesUndescribed(names: readonly string[]): string {
  return (
    `the code reads ${names.join(', ')}: say what each sets in SETTINGS (org/core/settings.org), ` +
    'or in tools/docs/environment-reference.ts'
  )
}

/** The reference describes the environment variables NAMES, which the code no longer reads. */
export function variablesUnread(names: readonly string[]): string {
  return `the code no longer reads ${names.join(', ')}: take it out of SETTINGS or tools/docs/environment-reference.ts`
}

/** The setting KEY of passepartout.json has no description to put in the reference. */
export function settingUndescribed(key: string): string {
  return `the setting ${key} says nothing of what it holds: describe it in config.org`
}

/** No native TypeScript compiler is installed, and only it emits the declarations. */
export function nativeCompilerMissing(): string {
  return 'make pack needs the native TypeScript compiler (typescript 7 or later) to emit types/'
}

/** The native compiler did not emit the declarations; OUTPUT is what it said. */
export function declarationsNotEmitted(output: string): string {
  return `the declarations of types/ were not emitted: ${output}`
}
