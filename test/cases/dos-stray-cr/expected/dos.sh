echo ab
