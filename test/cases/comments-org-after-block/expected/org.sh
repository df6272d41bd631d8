echo first


# Prose between the blocks,
#   indented here.

echo second
