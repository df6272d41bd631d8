/**
 * The package's manifest (tools/pack/manifest.ts): the repository's package.json as the package holds it, each
 * export's targets those the package ships, an export it ships nothing of left out, and the repository's own
 * scripts left out. The cases are a table over manifests; no pack is run.
 */
import {describe, expect, it} from 'vitest'
import {type Manifest, packageManifest} from '../../tools/pack/manifest.ts'

const SHIPPED = ['types/passepartout.d.ts', 'types/testing.d.ts', 'dist/testing/main.mjs', 'bin/passepartout']

describe("the package's manifest", () => {
  it.each<[string, NonNullable<Manifest['exports']>, NonNullable<Manifest['exports']>]>([
    [
      'a target it ships is kept',
      {'.': {types: './types/passepartout.d.ts'}},
      {'.': {types: './types/passepartout.d.ts'}},
    ],
    [
      'of a list of targets, those it ships',
      {'.': {types: ['./generated/core/passepartout.ts', './types/passepartout.d.ts']}},
      {'.': {types: ['./types/passepartout.d.ts']}},
    ],
    [
      'a condition whose target it does not ship is left out',
      {'./testing': {types: './types/testing.d.ts', default: './dist/testing/main.mjs', node: './tools/t.ts'}},
      {'./testing': {types: './types/testing.d.ts', default: './dist/testing/main.mjs'}},
    ],
    [
      'an export it ships nothing of is left out',
      {
        '.': {types: './types/passepartout.d.ts'},
        './toolchain': {types: './tools/toolchain.ts', default: './tools/toolchain.ts'},
      },
      {'.': {types: './types/passepartout.d.ts'}},
    ],
  ])('%s', (_, exports, expected) => {
    const manifest = {name: 'passepartout', exports, scripts: {prepack: 'guard', test: 'make test'}}
    expect(packageManifest(manifest, SHIPPED)).toEqual({name: 'passepartout', exports: expected})
  })
})
