echo crlf
#+end_src
#+begin_src sh :tangle lf.sh
echo lf
echo lf2

echo crlf
#+end_src
#+begin_src sh :tangle lf.sh
echo lf
echo lf2
