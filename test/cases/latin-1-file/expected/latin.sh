# [[file:input.org::*Café][Café:1]]
echo "déjà vu"
# Café:1 ends here
