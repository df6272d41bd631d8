/**
 * What a skill may read. Without a grant, its own Org document and the files
 * it tangles; `#+CAPABILITIES: read` adds the project, `read:FOLDER` a folder
 * (capabilities.ts reads the grant). Whatever it is granted, no skill reads
 * the project's state (`.passepartout/`: memory, the token, the approvals),
 * an environment file (`.env`), the home folder's keys (`~/.ssh`, `~/.gnupg`,
 * `~/.aws`, …), a file named like a key, nor the system's own files (`/proc`
 * holds the skill host's environment, and with it the model providers' keys).
 *
 * The skill host (org/core/reading.org) asks this of the real path of every
 * file a skill opens; the check asks it of every `read:` folder, which grants
 * nothing where no skill reads.
 */
import path from 'node:path'

/** Where the places no skill reads are: real, absolute paths. */
export interface Places {
  /** The project root. */
  root: string
  /** The home folder of the user the core runs as. */
  home: string
}

/** The home folder's files and folders that hold keys, passwords and tokens. */
const HOME_SECRETS = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.kube',
  '.docker',
  '.config/gcloud',
  '.config/gh',
  '.password-store',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.pgpass',
  '.git-credentials',
]

/** The system's own files: a process's environment and memory, devices. */
const SYSTEM_FOLDERS = ['/proc', '/sys', '/dev']

/** The extensions of files that hold keys or certificates with their keys. */
const KEY_EXTENSIONS = new Set(['.pem', '.key', '.p12', '.pfx', '.jks', '.keystore', '.ppk', '.kdbx', '.gpg', '.asc'])

/** The names ssh-keygen gives keys: `id_rsa`, `id_ed25519_sk.pub`… */
const SSH_KEYS = ['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519']

/** Whether FILE is FOLDER or inside it. */
export function within(file: string, folder: string): boolean {
  return file === folder || file.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep)
}

/** Whether NAME (a file's name) is an environment file's: `.env`, `.env.local`, `.envrc`. */
function isEnvironmentFile(name: string): boolean {
  return name === '.env' || name === '.envrc' || name.startsWith('.env.')
}

/** Whether NAME (a file's name) is named like a key. */
function isKeyName(name: string): boolean {
  const lower = name.toLowerCase()
  return KEY_EXTENSIONS.has(path.extname(lower)) || SSH_KEYS.some((key) => lower.startsWith(key))
}

/** Why no skill reads FILE (a real, absolute path), whatever it is granted; undefined when a grant may let it. */
export function neverReadable(file: string, places: Places): string | undefined {
  if (within(file, path.join(places.root, '.passepartout'))) return "the project's state (.passepartout/)"
  for (const folder of SYSTEM_FOLDERS) if (within(file, folder)) return `the system's own files (${folder})`
  for (const secret of HOME_SECRETS)
    if (within(file, path.join(places.home, secret))) return `the home folder's keys (~/${secret})`
  const name = path.basename(file)
  if (isEnvironmentFile(name)) return `an environment file (${name})`
  if (isKeyName(name)) return `a file named like a key (${name})`
  return undefined
}

/** The first place no skill reaches that lies inside FOLDER (a real, absolute path): what removing it would remove. */
export function holdsNeverReadable(folder: string, places: Places): string | undefined {
  const folders = [
    path.join(places.root, '.passepartout'),
    ...SYSTEM_FOLDERS,
    ...HOME_SECRETS.map((secret) => path.join(places.home, secret)),
  ]
  return folders.find((inside) => within(inside, folder))
}

/** The absolute folder a `read:` grant names: `~` and `~/…` under the home folder, a relative one from the project. */
export function grantedFolder(folder: string, places: Places): string {
  if (folder === '~') return places.home
  if (folder.startsWith('~/')) return path.join(places.home, folder.slice(2))
  return path.resolve(places.root, folder)
}

/**
 * Why a skill that may read the files and folders MAY (absolute) does not read FILE (a real, absolute path): a
 * place no skill reads, or one outside what it may; undefined when it reads it.
 */
export function readRefusal(
  file: string,
  may: readonly string[],
  places: Places,
): {never: string} | {notGranted: true} | undefined {
  const never = neverReadable(file, places)
  if (never !== undefined) return {never}
  return may.some((allowed) => within(file, allowed)) ? undefined : {notGranted: true}
}
