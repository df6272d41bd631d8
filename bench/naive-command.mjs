// `node bench/naive-command.mjs FILES.json`: the naive scanner as a command.
import fs from 'node:fs'
import {naiveTangle} from './naive-scanner.mjs'

naiveTangle(JSON.parse(fs.readFileSync(process.argv[2], 'utf8')))
