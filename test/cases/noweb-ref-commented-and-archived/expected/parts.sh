echo kept
echo archived
