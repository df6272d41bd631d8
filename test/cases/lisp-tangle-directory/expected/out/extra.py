# [[file:../input.org::*Tools][Tools:3]]
print("expanded in the Org file's folder")
# Tools:3 ends here
