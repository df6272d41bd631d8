echo one
echo two
echo keep (ref:x) here

echo three
echo four (ref:kept)

indented
  more
