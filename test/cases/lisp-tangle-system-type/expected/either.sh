echo either
