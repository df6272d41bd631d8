# [[file:../input.org::*Use \[x\] boxes \ done][Use [x] boxes [1/2] \ done:1]]
echo boxes
# Use [x] boxes [1/2] \ done:1 ends here

# [[file:../b][Path a/../b:1]]
echo path
# Path a/../b:1 ends here
