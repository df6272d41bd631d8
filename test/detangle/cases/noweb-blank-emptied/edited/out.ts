export class Pair {
  readonly left = 1

  readonly right = 2
}
