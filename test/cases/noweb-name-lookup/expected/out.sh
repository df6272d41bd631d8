echo banner
echo banner
[]
[]
echo step
