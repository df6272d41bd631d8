# [[file:../input.org::*Tools][Tools:1]]
print("tool")
# Tools:1 ends here
