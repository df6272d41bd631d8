;; [[file:input.org::*Settings][Settings:1]]
(setq inhibit-startup-screen t)
;; Settings:1 ends here

(global-set-key (kbd "C-c a") #'org-agenda)
