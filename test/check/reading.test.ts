/**
 * Where no skill reads, whatever it is granted (tools/check/reading.ts): every
 * place is a row, judged by its real path, as the skill host and the check
 * judge it; and the `read:` folders the check refuses.
 */
import {describe, expect, it} from 'vitest'
import {unreadableGrants} from '../../tools/check/capabilities.ts'
import {grantedFolder, holdsNeverReadable, neverReadable, readRefusal} from '../../tools/check/reading.ts'

const places = {root: '/home/ann/project', home: '/home/ann'}

describe('the places no skill reads', () => {
  it.each([
    ['/home/ann/project/.passepartout', "the project's state (.passepartout/)"],
    ['/home/ann/project/.passepartout/token', "the project's state (.passepartout/)"],
    ['/home/ann/project/.passepartout/memory.db', "the project's state (.passepartout/)"],
    ['/home/ann/project/.passepartout-notes/todo', undefined],
    ['/home/ann/project/.env', 'an environment file (.env)'],
    ['/home/ann/project/app/.env.local', 'an environment file (.env.local)'],
    ['/home/ann/project/.envrc', 'an environment file (.envrc)'],
    ['/home/ann/project/.environment.md', undefined],
    ['/home/ann/.ssh', "the home folder's keys (~/.ssh)"],
    ['/home/ann/.ssh/config', "the home folder's keys (~/.ssh)"],
    ['/home/ann/.gnupg/pubring.kbx', "the home folder's keys (~/.gnupg)"],
    ['/home/ann/.aws/credentials', "the home folder's keys (~/.aws)"],
    ['/home/ann/.config/gcloud/credentials.db', "the home folder's keys (~/.config/gcloud)"],
    ['/home/ann/.netrc', "the home folder's keys (~/.netrc)"],
    ['/home/ann/.sshd-notes', undefined],
    ['/home/ann/.config/app.json', undefined],
    ['/home/ann/project/keys/id_ed25519', 'a file named like a key (id_ed25519)'],
    ['/home/ann/project/keys/id_rsa.pub', 'a file named like a key (id_rsa.pub)'],
    ['/srv/tls/server.PEM', 'a file named like a key (server.PEM)'],
    ['/srv/tls/server.key', 'a file named like a key (server.key)'],
    ['/srv/tls/store.p12', 'a file named like a key (store.p12)'],
    ['/srv/tls/keynotes.txt', undefined],
    ['/proc/self/environ', "the system's own files (/proc)"],
    ['/proc', "the system's own files (/proc)"],
    ['/sys/kernel/notes', "the system's own files (/sys)"],
    ['/dev/stdin', "the system's own files (/dev)"],
    ['/devices/notes', undefined],
    ['/home/ann/project/notes/todo.txt', undefined],
  ])('%s', (file, why) => {
    expect(neverReadable(file, places)).toBe(why)
  })
})

describe('what a skill may read', () => {
  const own = ['/home/ann/project/org/skills/notes.org', '/home/ann/project/generated/skills/notes.ts']
  it.each([
    ['its own document', own[0]!, own, undefined],
    ['its own code', own[1]!, own, undefined],
    ['the document beside it', '/home/ann/project/org/skills/other.org', own, {notGranted: true}],
    ['a note, granted the project', '/home/ann/project/notes/todo.txt', [...own, places.root], undefined],
    ['a note, granted its folder', '/home/ann/project/notes/todo.txt', [...own, '/home/ann/project/notes'], undefined],
    ['a note of a folder named alike', '/home/ann/project/notes-old/todo.txt', [...own, '/home/ann/project/notes'], {notGranted: true}],
    ['the token, granted the project', '/home/ann/project/.passepartout/token', [...own, places.root], {never: "the project's state (.passepartout/)"}],
    ['a key, granted the whole disk', '/home/ann/.ssh/id_rsa', ['/'], {never: "the home folder's keys (~/.ssh)"}],
  ])('%s', (_what, file, may, refusal) => {
    expect(readRefusal(file, may, places)).toEqual(refusal)
  })

  it.each([
    ['.', '/home/ann/project'],
    ['notes', '/home/ann/project/notes'],
    ['../shared', '/home/ann/shared'],
    ['~', '/home/ann'],
    ['~/recipes', '/home/ann/recipes'],
    ['/srv/data', '/srv/data'],
  ])('reads the folder read:%s as %s', (folder, absolute) => {
    expect(grantedFolder(folder, places)).toBe(absolute)
  })

  it('refuses a read: folder where no skill reads, and says which place a removal would take', () => {
    expect(unreadableGrants(['notes', '.passepartout', '~/.ssh/keys', '/proc'], places)).toEqual([
      {word: 'read:.passepartout', why: "no skill reads the project's state (.passepartout/)"},
      {word: 'read:~/.ssh/keys', why: "no skill reads the home folder's keys (~/.ssh)"},
      {word: 'read:/proc', why: "no skill reads the system's own files (/proc)"},
    ])
    expect(holdsNeverReadable('/home/ann/project', places)).toBe('/home/ann/project/.passepartout')
    expect(holdsNeverReadable('/home/ann/project/notes', places)).toBeUndefined()
  })
})
