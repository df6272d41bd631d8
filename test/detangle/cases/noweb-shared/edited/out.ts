export class English {
  readonly polite = false
}

export class French {
  readonly polite = true
}
