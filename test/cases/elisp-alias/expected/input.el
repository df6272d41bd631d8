(let ((n '3)
      (s '"a \"q\""))
(message "%s %s" n s)
)
