import fs from 'node:fs'
export const first = 1
