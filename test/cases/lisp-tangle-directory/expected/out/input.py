# [[file:../input.org::*Tools][Tools:2]]
print("same name as the Org file")
# Tools:2 ends here
