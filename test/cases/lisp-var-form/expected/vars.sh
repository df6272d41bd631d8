echo "variables are dropped for sh"
