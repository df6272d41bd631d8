# [[file:input.org::#the-id][Heading with id:1]]
echo custom id
# Heading with id:1 ends here

# [[file:input.org::radio][Plain heading:1]]
echo radio
# Plain heading:1 ends here

# [[file:input.org::named][named]]
echo named
# named ends here
