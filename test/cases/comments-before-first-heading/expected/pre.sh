echo before

# After

# [[file:input.org::*After][After:1]]
echo after
# After:1 ends here
