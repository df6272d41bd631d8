export EDITOR=emacs
