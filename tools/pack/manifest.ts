/**
 * The package's package.json: this repository's, as the package holds it. The repository exports modules the
 * package does not ship (`./toolchain`, the tangled sources its bundles were built from, which a checkout's own
 * code imports), and runs scripts that need the repository (`prepack`, `test`). A user importing such an export
 * from the installed package would get a missing file where Node says, for one the package does not export,
 * that it is no export of it (ERR_PACKAGE_PATH_NOT_EXPORTED). So the package's manifest exports only what it
 * ships, and has none of the repository's scripts.
 */

/** An export's conditions (`types`, `default`), each naming a target or a list of them, tried in order. */
type Conditions = Record<string, string | string[]>

export interface Manifest {
  exports?: Record<string, Conditions>
  scripts?: Record<string, string>
  [field: string]: unknown
}

/**
 * MANIFEST as the package that holds SHIPPED (its files, relative to it, `/`-separated) has it, its fields in their
 * order: of each export, the targets it ships (shippedExports), and no scripts.
 */
export function packageManifest(manifest: Manifest, shipped: readonly string[]): Manifest {
  const held = new Set(shipped)
  const ships = (target: string) => held.has(target.replace(/^\.\//, ''))
  const fields = Object.entries(manifest).flatMap(([field, value]) => {
    if (field === 'scripts') return []
    if (field === 'exports') return [[field, shippedExports(value as Record<string, Conditions>, ships)]]
    return [[field, value]]
  })
  return Object.fromEntries(fields) as Manifest
}

/**
 * Of EXPORTS, the targets SHIPS holds: of a list, those it holds, in their order; a condition none of whose
 * targets it holds, and an export none of whose conditions is left, are left out.
 */
function shippedExports(
  exports: Record<string, Conditions>,
  ships: (target: string) => boolean,
): Record<string, Conditions> {
  const kept = Object.entries(exports).flatMap(([name, conditions]) => {
    const shippedConditions = Object.entries(conditions).flatMap(([condition, targets]) => {
      const left = [targets].flat().filter(ships)
      if (left.length === 0) return []
      return [[condition, Array.isArray(targets) ? left : left[0]!] as const]
    })
    return shippedConditions.length === 0 ? [] : [[name, Object.fromEntries(shippedConditions)] as const]
  })
  return Object.fromEntries(kept)
}
