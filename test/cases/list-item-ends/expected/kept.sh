echo kept

echo nested
