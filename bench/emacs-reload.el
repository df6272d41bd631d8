;;; emacs-reload.el --- How long a save takes to be said in Emacs -*- lexical-binding: t -*-

;;; Commentary:

;; Run by bench/emacs.bench.ts: a core started with `passepartout-run'
;; on a temporary project (the fixtures of passepartout-tests.el), a
;; skill document in `passepartout-mode', saved ROUNDS times.  For each
;; save: the milliseconds from `save-buffer' to the reload's line in the
;; echo area, and the core's own time for that reload (the reload
;; event's `ms': from the watcher's first event to the new version
;; committed).  Printed as one JSON line.

;;; Code:

(require 'passepartout-tests)

(defun passepartout-bench--save (buffer version)
  "Save VERSION of the greeter into BUFFER; (EMACS-MS CORE-MS) of its reload."
  (let ((core-ms nil) (said nil) start)
    (cl-flet ((heard (_connection event)
                (when (equal (plist-get event :sensor) "reload")
                  (setq core-ms (plist-get (plist-get event :data) :ms))))
              (shown (format &rest arguments)
                (when (and format (string-prefix-p "reloaded greeter" (apply #'format-message format arguments)))
                  (setq said (float-time)))))
      (add-hook 'passepartout--event-functions #'heard)
      (advice-add 'message :before #'shown)
      (unwind-protect
          (with-current-buffer buffer
            (erase-buffer)
            (insert (passepartout-test--greeter (format "'%s'" version)))
            (setq start (float-time))
            (save-buffer)
            (passepartout-test--wait "the reload's line" (lambda () (and said core-ms)) 60))
        (advice-remove 'message #'shown)
        (remove-hook 'passepartout--event-functions #'heard)))
    (list (* 1000 (- said start)) core-ms)))

(let* ((rounds (string-to-number (or (getenv "ROUNDS") "30")))
       (root (passepartout-test--core))
       (buffer (passepartout-test--document root "org/skills/greeter.org"))
       (results nil))
  ;; The first save builds the checker's program (the cores of the tests skip the warm-up): not counted.
  (passepartout-bench--save buffer "warm")
  (dotimes (round rounds)
    (push (passepartout-bench--save buffer (format "v%d" round)) results))
  (passepartout-test--stop root)
  (princ (concat (json-serialize (vconcat (mapcar #'vconcat (nreverse results)))) "\n")))

;;; emacs-reload.el ends here
