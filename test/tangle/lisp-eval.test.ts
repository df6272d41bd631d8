/**
 * The Lisp that header arguments evaluate (tools/tangle/lisp-eval.ts): a table
 * of forms with what Emacs 28.2 answered, recorded with
 * test/support/emacs-lisp.ts in a buffer visiting /home/alice/notes/config.org,
 * HOME=/home/alice, on GNU/Linux. The table is checked without Emacs; when
 * Emacs is installed the same forms are evaluated in it again and compared.
 */
import {describe, expect, it} from 'vitest'
import {babelRead, LispEvalError} from '../../tools/tangle/elisp.ts'
import {parseHeaderArguments} from '../../tools/tangle/header-args.ts'
import {evaluateLisp, type Evaluation, type LispContext, systemTypeOf} from '../../tools/tangle/lisp-eval.ts'
import {FORM_NESTING_LIMIT, printDatum} from '../../tools/tangle/lisp-read.ts'
import {emacsAvailable} from '../differential/harness.ts'
import {type EmacsAnswer, evaluateWithEmacs} from '../support/emacs-lisp.ts'

const FILE = '/home/alice/notes/config.org'
const HOME = '/home/alice'
const CONTEXT: LispContext = {file: FILE, home: HOME, systemType: 'gnu/linux'}

/** Forms and their values, as `%S` prints them. */
const VALUES: [form: string, printed: string][] = [
  ['(concat (file-name-sans-extension (buffer-file-name)) ".el")', '"/home/alice/notes/config.el"'],
  ['(concat (file-name-sans-extension buffer-file-name) ".el")', '"/home/alice/notes/config.el"'],
  ['(concat (file-name-directory (buffer-file-name)) "out.el")', '"/home/alice/notes/out.el"'],
  ['(concat default-directory "python/" "analysis.py")', '"/home/alice/notes/python/analysis.py"'],
  ['(concat (expand-file-name "~/jconfig/.emacs.d/tangles/") (file-name-base) ".el")', '"/home/alice/jconfig/.emacs.d/tangles/config.el"'],
  ['(expand-file-name "~/.emacs")', '"/home/alice/.emacs"'],
  ['(file-name-nondirectory (buffer-file-name))', '"config.org"'],
  ['(buffer-name)', '"config.org"'],
  ['(buffer-name nil)', '"config.org"'],
  ['(buffer-file-name)', '"/home/alice/notes/config.org"'],
  ['(buffer-file-name nil)', '"/home/alice/notes/config.org"'],
  ['(file-name-base)', '"config"'],
  ['(file-name-base nil)', '"config"'],
  ['(file-name-base "/a/b.tar.gz")', '"b.tar"'],
  ['(file-name-extension (buffer-file-name))', '"org"'],
  ['(file-name-extension "foo" t)', '""'],
  ['(file-name-extension "foo")', 'nil'],
  ['(file-name-extension "foo.")', '""'],
  ['(file-name-extension ".emacs")', 'nil'],
  ['(file-name-extension "a.b.~1~")', '"b"'],
  [String.raw`(file-name-extension "a.b.c" 'period)`, '".c"'],
  ['(file-name-sans-extension "a.b.c~")', '"a.b"'],
  ['(file-name-sans-extension ".emacs")', '".emacs"'],
  ['(file-name-sans-extension "foo.~1~")', '"foo.~1~"'],
  ['(file-name-sans-extension "foo.js.~HEAD~1~")', '"foo"'],
  ['(file-name-sans-extension "dir.d/file")', '"dir.d/file"'],
  ['(file-name-sans-extension "/a.b/c.d.e")', '"/a.b/c.d"'],
  ['(file-name-sans-extension "x/.hidden")', '"x/.hidden"'],
  ['(file-name-sans-extension "café.txt.~é1~")', '"café"'],
  ['(file-name-sans-extension "a.~b c~")', '"a"'],
  ['(file-name-sans-extension "a.~~")', '"a"'],
  ['(file-name-sans-extension "a.~1~2~")', '"a.~1~2~"'],
  ['(file-name-sans-extension "a.b~.~1~")', '"a"'],
  ['(file-name-sans-extension "a.b.~x~y~")', '"a.b"'],
  ['(file-name-sans-extension "a.b.~~1~")', '"a.b"'],
  ['(file-name-sans-extension "a.b.~x~~")', '"a.b"'],
  ['(file-name-sans-extension "a.b~")', '"a"'],
  ['(file-name-sans-extension "x.~.~1~")', '"x.~.~1~"'],
  ['(file-name-sans-extension "x.~.~.~1~")', '"x"'],
  ['(file-name-sans-extension "x.~.~.~.~1~")', '"x.~"'],
  ['(file-name-sans-extension "x.~a~1~")', '"x.~a~1~"'],
  ['(file-name-sans-extension "x.~.~.~")', '"x"'],
  ['(file-name-sans-extension "~")', '"~"'],
  ['(file-name-sans-extension ".~1~")', '".~1~"'],
  ['(file-name-sans-extension "a/b.c/")', '"a/b.c/"'],
  ['(file-name-sans-extension "")', '""'],
  ['(file-name-sans-extension "a.tar.gz")', '"a.tar"'],
  ['(file-name-sans-extension "a.gpg")', '"a"'],
  ['(file-name-directory "a")', 'nil'],
  ['(file-name-directory "/")', '"/"'],
  ['(file-name-directory "a/b/")', '"a/b/"'],
  ['(file-name-directory "")', 'nil'],
  ['(file-name-nondirectory "a/b/")', '""'],
  ['(file-name-nondirectory "")', '""'],
  ['(file-name-nondirectory "~")', '"~"'],
  ['(file-name-as-directory "")', '"./"'],
  ['(file-name-as-directory "a")', '"a/"'],
  ['(file-name-as-directory "a/")', '"a/"'],
  ['(file-name-as-directory "/")', '"/"'],
  ['(file-name-as-directory "~")', '"~/"'],
  ['(expand-file-name "x")', '"/home/alice/notes/x"'],
  ['(expand-file-name "")', '"/home/alice/notes"'],
  ['(expand-file-name ".")', '"/home/alice/notes"'],
  ['(expand-file-name "..")', '"/home/alice"'],
  ['(expand-file-name "../../../..")', '"/.."'],
  ['(expand-file-name "../../../../x")', '"/../x"'],
  ['(expand-file-name "a/./b//c/../d")', '"/home/alice/notes/a/b/d"'],
  ['(expand-file-name "/..")', '"/.."'],
  ['(expand-file-name "/../a/")', '"/../a/"'],
  ['(expand-file-name "//a")', '"//a"'],
  ['(expand-file-name "///a")', '"/a"'],
  ['(expand-file-name "//")', '"//"'],
  ['(expand-file-name "/")', '"/"'],
  ['(expand-file-name "/a/~/b")', '"/a/~/b"'],
  ['(expand-file-name "~")', '"/home/alice"'],
  ['(expand-file-name "~/")', '"/home/alice/"'],
  ['(expand-file-name "~/../x")', '"/home/x"'],
  ['(expand-file-name "~/./")', '"/home/alice/"'],
  ['(expand-file-name "x" "~")', '"/home/alice/x"'],
  ['(expand-file-name "x" "~/")', '"/home/alice/x"'],
  ['(expand-file-name "x" "/tmp/")', '"/tmp/x"'],
  ['(expand-file-name "x" "/tmp//")', '"/tmp/x"'],
  ['(expand-file-name "x" "//")', '"//x"'],
  ['(expand-file-name "x" "rel")', '"/home/alice/notes/rel/x"'],
  ['(expand-file-name "x" "rel/../..")', '"/home/alice/x"'],
  ['(expand-file-name "x" "")', '"/home/alice/notes/x"'],
  ['(expand-file-name "x" nil)', '"/home/alice/notes/x"'],
  ['(expand-file-name "a" 1)', '"/a"'],
  [String.raw`(expand-file-name "a" 'b)`, '"/a"'],
  ['(expand-file-name "/a/b.tar/c/../d")', '"/a/b.tar/d"'],
  ['(expand-file-name "a.gpg")', '"/home/alice/notes/a.gpg"'],
  ['(expand-file-name "a.gz/../b")', '"/home/alice/notes/b"'],
  ['(expand-file-name "/a/.")', '"/a"'],
  ['(expand-file-name "/.")', '"/"'],
  ['(expand-file-name "/./a")', '"/a"'],
  ['(expand-file-name "/a/..")', '"/"'],
  ['(expand-file-name "/a/../..")', '"/.."'],
  ['(expand-file-name "/a/../../b")', '"/../b"'],
  ['(expand-file-name "a/" "/b")', '"/b/a/"'],
  ['(expand-file-name "~/x" "/y")', '"/home/alice/x"'],
  ['(expand-file-name "a:b")', '"/home/alice/notes/a:b"'],
  ['(expand-file-name "/a/b:c")', '"/a/b:c"'],
  ['(expand-file-name "..." )', '"/home/alice/notes/..."'],
  ['(expand-file-name "a/.../b/..")', '"/home/alice/notes/a/..."'],
  ['(expand-file-name "/a/.b/..c/")', '"/a/.b/..c/"'],
  [String.raw`(if (eq system-type 'gnu/linux) "init.el")`, '"init.el"'],
  [String.raw`(when (eq system-type 'gnu/linux) "./init.el")`, '"./init.el"'],
  [String.raw`(if (eq system-type 'darwin) "mac.el" "no")`, '"no"'],
  [String.raw`(if (eq system-type 'darwin) (mac-only) "linux.el")`, '"linux.el"'],
  [String.raw`(unless (eq system-type 'darwin) "linux.el")`, '"linux.el"'],
  [String.raw`(unless (eq system-type 'gnu/linux) "other.el")`, 'nil'],
  ['(when nil)', 'nil'],
  ['(when t)', 'nil'],
  ['(unless nil)', 'nil'],
  ['(if (>= emacs-major-version 28) "yes" "no")', '"yes"'],
  ['(if nil "a" "b" "c")', '"c"'],
  ['(if nil "x")', 'nil'],
  [String.raw`(cond ((eq system-type 'darwin) "mac.el") ((eq system-type 'gnu/linux) "linux.el") (t "other.el"))`, '"linux.el"'],
  ['(cond (nil 1) (2))', '2'],
  ['(cond ("a"))', '"a"'],
  ['(cond ())', 'nil'],
  ['(cond)', 'nil'],
  ['(and "a" "b")', '"b"'],
  ['(and)', 't'],
  ['(and nil (error "x"))', 'nil'],
  ['(or nil "b")', '"b"'],
  ['(or)', 'nil'],
  ['(or "a" (error "x"))', '"a"'],
  ['(not nil)', 't'],
  ['(not "a")', 'nil'],
  ['(null nil)', 't'],
  ['(string= system-type "gnu/linux")', 't'],
  ['(string-equal "a" "a")', 't'],
  [String.raw`(string= 'a "a")`, 't'],
  ['(string= nil "nil")', 't'],
  ['(string= "a" "b")', 'nil'],
  ['(equal "a" "a")', 't'],
  ['(eq "a" "a")', 'nil'],
  ['(eq "" "")', 't'],
  [String.raw`(eq 'a 'a)`, 't'],
  ['(eq 1 1)', 't'],
  [String.raw`(eq nil '())`, 't'],
  ['(equal 1 1.0)', 'nil'],
  ['(equal 1.0 1.0)', 't'],
  ['(eq 1.0 1.0)', 'nil'],
  ['(equal 0.0 -0.0)', 'nil'],
  [String.raw`(equal '(a "b") '(a "b"))`, 't'],
  ['(equal [1 2] [1 2])', 't'],
  [String.raw`(equal '(a) [a])`, 'nil'],
  ['(eq buffer-file-name (buffer-file-name))', 't'],
  ['(eq (buffer-name) (buffer-name))', 't'],
  [String.raw`(eq system-type 'darwin)`, 'nil'],
  [String.raw`(eq system-type 'gnu/linux)`, 't'],
  ['(format "%s.el" (file-name-base))', '"config.el"'],
  [String.raw`(format "%s/%d-%s" "a" 12 'b)`, '"a/12-b"'],
  ['(format "100%%")', '"100%"'],
  ['(format "%d" 1.9)', '"1"'],
  ['(format "%d" -1.9)', '"-1"'],
  ['(format "%d" -0.5)', '"0"'],
  ['(format "%s" 1.5)', '"1.5"'],
  [String.raw`(format "%s" '(a "b" 'c #'d))`, String.raw`"(a b 'c #'d)"`],
  ['(format "%s" nil)', '"nil"'],
  ['(format "%s" [1 "x"])', '"[1 x]"'],
  [String.raw`(format "%s" 'gnu/linux)`, '"gnu/linux"'],
  ['(format "%s" "a" "extra")', '"a"'],
  ['(format "%d" #x1f)', '"31"'],
  ['(format "%s" 1e3)', '"1000.0"'],
  ['(format "%s" 0.1)', '"0.1"'],
  ['(format "%s" -0.0)', '"-0.0"'],
  [String.raw`(format "%s" '(quote a b))`, '"(quote a b)"'],
  ["(format \"%s\" '`(a ,b ,@c))", '"`(a ,b ,@c)"'],
  [String.raw`(format "%s" 'a.b)`, '"a.b"'],
  ['(format "")', '""'],
  ['(format "é%sü" "ö")', '"éöü"'],
  ['(concat)', '""'],
  ['(concat "a" nil "b")', '"ab"'],
  [String.raw`(concat '(97 98) [99])`, '"abc"'],
  ['(concat "é" "ü")', '"éü"'],
  [String.raw`(concat "\u00e9\t\n\x41\101")`, "\"é\t\nAA\""],
  ["(concat \"a\" ; comment\n \"b\")", '"ab"'],
  ['(concat "a" "b")    trailing (stuff', '"ab"'],
  ['(identity #o755)', '493'],
  ['(identity #x1ED)', '493'],
  ['(identity #b111101101)', '493'],
  ['(identity #O17)', '15'],
  ['(identity #x-1f)', '-31'],
  ['(identity 493)', '493'],
  ['(identity "x")', '"x"'],
  ['(identity emacs-version)', '"28.2"'],
  ['(identity emacs-minor-version)', '2'],
  ['(identity default-directory)', '"/home/alice/notes/"'],
  ['(identity :keyword)', ':keyword'],
  ['(identity t)', 't'],
  ['(identity -0)', '0'],
  ['(identity 1.)', '1'],
  ['(identity .5)', '0.5'],
  ['(identity 1e3)', '1000.0'],
  ['(identity -1.5e-3)', '-0.0015'],
  [String.raw`(identity '.b)`, String.raw`\.b`],
  [String.raw`(identity 'a?b)`, String.raw`a\?b`],
  [String.raw`'(a b)`, '(a b)'],
  [String.raw`'"str"`, '"str"'],
  [String.raw`'darwin`, 'darwin'],
  ['`foo', 'foo'],
  ['`(a b)', '(a b)'],
  ['[1 2]', '[1 2]'],
  ['[a (b c)]', '[a (b c)]'],
  ['(quote x)', 'x'],
  ['(function foo)', 'foo'],
  [String.raw`'#'foo`, String.raw`#'foo`],
  [String.raw`''a`, String.raw`'a`],
  ['(progn "a" "b")', '"b"'],
  ['(progn)', 'nil'],
  ['(< 1 2 3)', 't'],
  ['(< "a")', 't'],
  ['(< 2 1 "a")', 'nil'],
  ['(= 1 1.0)', 't'],
  ['(> 2 1)', 't'],
  ['(<= 1 1)', 't'],
  ['(>= 1 2)', 'nil'],
  ['(= 1 1 2)', 'nil'],
  ['(< 1 1.5)', 't'],
  ['(cond (t) x)', 't'],
  ["'\"a\\\nb\"", '"ab"'],
  [String.raw`'"\s\d\e\^a\C-b"`, "\" \u001b\u0001\u0002\""],
  [String.raw`'"\u00e9\U0001F600"`, '"é😀"'],
  [String.raw`'"\x41g"`, '"Ag"'],
  [String.raw`'"\777"`, '"ǿ"'],
  [String.raw`'"\0"`, "\"\u0000\""],
  [String.raw`'"\x"`, "\"\u0000\""],
  [String.raw`'"\u00ff"`, '"ÿ"'],
  [String.raw`'"a\x100b"`, '"aဋ"'],
  [String.raw`'(a .b)`, String.raw`(a \.b)`],
  [String.raw`'a.b`, String.raw`a\.b`],
  [String.raw`'a,b`, 'a'],
  [String.raw`'a#b`, 'a'],
  [String.raw`'"\"q\"\\"`, String.raw`"\"q\"\\"`],
  [String.raw`'|x|`, '|x|'],
  [String.raw`'a;b`, 'a'],
  [String.raw`'-`, '-'],
  [String.raw`'+1a`, '+1a'],
  [String.raw`'1+`, '1+'],
  [String.raw`'(,a ,@b)`, String.raw`((\, a) (\,@ b))`],
  [String.raw`'(quote)`, '(quote)'],
  [String.raw`'(quote a b)`, '(quote a b)'],
  [String.raw`'(function a)`, String.raw`#'a`],
  [String.raw`'#'(lambda (x) x)`, String.raw`#'(lambda (x) x)`],
  [String.raw`'"tab\there"`, "\"tab\there\""],
  ['(format "%s" "é")', '"é"'],
  ['(string= "é" "é")', 't'],
  ['(file-name-extension "x.é")', '"é"'],
  ['(file-name-sans-extension "/tmp/rép.ertoire/fi.chier.org")', '"/tmp/rép.ertoire/fi.chier"'],
  [String.raw`'nil`, 'nil'],
  [String.raw`'()`, 'nil'],
  [String.raw`'[]`, '[]'],
  ["(identity \"multi\nline\")", "\"multi\nline\""],
  ['(format "%d" 9007199254740991)', '"9007199254740991"'],
  ['(format "%%" 1)', '"%"'],
  ['(format "%%%s" 1)', '"%1"'],
  ['(file-name-nondirectory "/a/b.tar/c")', '"c"'],
  ['(file-name-directory "/a/b.zip/c/d")', '"/a/b.zip/c/"'],
  ['(file-name-sans-extension "/a/b.tar/c.d")', '"/a/b.tar/c"'],
  ['(file-name-extension "/a/b.tar/c.d")', '"d"'],
  [String.raw`'a'b`, 'a'],
  [String.raw`(identity '( a b ))`, '(a b)'],
  ["(concat    \"x\"\n  ;; comment ( with paren\n  \"y\")", '"xy"'],
  [String.raw`(concat "a\"b")`, String.raw`"a\"b"`],
  [String.raw`'1.5e`, String.raw`1\.5e`],
  [String.raw`'e1`, 'e1'],
  ['(identity #o+7)', '7'],
  ['(and "a" nil "c")', 'nil'],
  ['(or nil nil)', 'nil'],
  ['(cond (nil) (nil "x") ((eq 1 1) "one" "two"))', '"two"'],
  ['(when "a" "b" "c")', '"c"'],
  ['(unless "a" "b")', 'nil'],
  ['(if "" "empty string is true" "no")', '"empty string is true"'],
  ['(if 0 "zero is true" "no")', '"zero is true"'],
  [String.raw`(if '() "a" "b")`, '"b"'],
  ['(if [] "a" "b")', '"a"'],
  ['(equal "" "")', 't'],
  [String.raw`(equal nil '())`, 't'],
  [String.raw`(eq '(a) '(a))`, 'nil'],
  [String.raw`(equal '(1 2 (3 [4 "5"])) '(1 2 (3 [4 "5"])))`, 't'],
  ['(eq (concat) "")', 't'],
  ['(string= "" nil)', 'nil'],
  ['(string= "nil" nil)', 't'],
  [String.raw`(string-equal 'foo 'foo)`, 't'],
  ['(string= t "t")', 't'],
  ['(= 1)', 't'],
  ['(= "a")', 't'],
  ['(= 0.0 -0.0)', 't'],
  ['(< -1 -0.5 0 0.5 1)', 't'],
  ['(>= 2 2 1 1)', 't'],
  ['(<= 1 2 2 3)', 't'],
  ['(= 1 1 1)', 't'],
]

/** Forms Emacs fails on (reading or evaluating), and its error as `%S` prints it. */
const ERRORS: [form: string, error: string][] = [
  ['(concat 1)', '(wrong-type-argument sequencep 1)'],
  [String.raw`(concat 'a)`, '(wrong-type-argument sequencep a)'],
  [String.raw`(concat '(a))`, '(wrong-type-argument characterp a)'],
  [String.raw`(concat '(-1))`, '(wrong-type-argument characterp -1)'],
  ['(concat t)', '(wrong-type-argument sequencep t)'],
  ['(concat "a" (concat 1))', '(wrong-type-argument sequencep 1)'],
  ['(concat (file-name-directory "a") 1)', '(wrong-type-argument sequencep 1)'],
  ['(format)', '(wrong-number-of-arguments format 0)'],
  ['(format 1)', '(wrong-type-argument stringp 1)'],
  ['(format "%q")', '(error "Not enough arguments for format string")'],
  ['(format "%q" 1)', '(error "Invalid format operation %q")'],
  ['(format "%d" "a")', '(error "Format specifier doesn’t match argument type")'],
  ['(format "%" 1)', '(error "Format string ends in middle of format specifier")'],
  ['(format "%")', '(error "Format string ends in middle of format specifier")'],
  ['(format "%s")', '(error "Not enough arguments for format string")'],
  ['(format "%d" nil)', '(error "Format specifier doesn’t match argument type")'],
  ['(format "%s %s" 1)', '(error "Not enough arguments for format string")'],
  ['(file-name-sans-extension)', '(wrong-number-of-arguments file-name-sans-extension 0)'],
  ['(file-name-sans-extension 1)', '(wrong-type-argument stringp 1)'],
  ['(file-name-sans-extension "a.b" (shell-command-to-string "x"))', '(wrong-number-of-arguments file-name-sans-extension 2)'],
  ['(file-name-extension 1)', '(wrong-type-argument stringp 1)'],
  ['(file-name-extension)', '(wrong-number-of-arguments file-name-extension 0)'],
  ['(file-name-base 1)', '(wrong-type-argument stringp 1)'],
  ['(file-name-base "a" "b")', '(wrong-number-of-arguments file-name-base 2)'],
  ['(file-name-nondirectory nil)', '(wrong-type-argument stringp nil)'],
  ['(file-name-directory 1)', '(wrong-type-argument stringp 1)'],
  [String.raw`(file-name-as-directory 'a)`, '(wrong-type-argument stringp a)'],
  ['(expand-file-name 1)', '(wrong-type-argument stringp 1)'],
  ['(expand-file-name)', '(wrong-number-of-arguments expand-file-name 0)'],
  ['(expand-file-name "a" "b" "c")', '(wrong-number-of-arguments expand-file-name 3)'],
  ['(when)', '(wrong-number-of-arguments (1 . 1) 0)'],
  ['(unless)', '(wrong-number-of-arguments (1 . 1) 0)'],
  ['(if)', '(wrong-number-of-arguments if 0)'],
  ['(if t)', '(wrong-number-of-arguments if 1)'],
  ['(quote)', '(wrong-number-of-arguments quote 0)'],
  ['(quote a b)', '(wrong-number-of-arguments quote 2)'],
  ['(function)', '(wrong-number-of-arguments function 0)'],
  ['(cond x)', '(wrong-type-argument listp x)'],
  ['(cond "a")', '(wrong-type-argument listp "a")'],
  ['(string= "a")', '(wrong-number-of-arguments string= 1)'],
  ['(string-equal "a")', '(wrong-number-of-arguments string-equal 1)'],
  ['(string= 1 "a")', '(wrong-type-argument stringp 1)'],
  ['(string= "a" 2)', '(wrong-type-argument stringp 2)'],
  ['(not)', '(wrong-number-of-arguments not 0)'],
  ['(not 1 2)', '(wrong-number-of-arguments not 2)'],
  ['(eq 1)', '(wrong-number-of-arguments eq 1)'],
  ['(identity)', '(wrong-number-of-arguments identity 0)'],
  ['(identity 1 2)', '(wrong-number-of-arguments identity 2)'],
  ['(< 1 "a")', '(wrong-type-argument number-or-marker-p "a")'],
  ['(<)', '(wrong-number-of-arguments < 0)'],
  ['(buffer-file-name "x")', '(wrong-type-argument bufferp "x")'],
  ['(buffer-name 1)', '(wrong-type-argument bufferp 1)'],
  ['(buffer-name nil nil)', '(wrong-number-of-arguments buffer-name 2)'],
  ['*this*', '(void-variable *this*)'],
  ['(1 2)', '(invalid-function 1)'],
  ['("a")', '(invalid-function "a")'],
  ['((a) 1)', '(invalid-function (a))'],
  ['([a])', '(invalid-function [a])'],
  ['(concat "a"', '(end-of-file)'],
  ['(concat "a', '(end-of-file)'],
  ['(a]', '(invalid-read-syntax "] in a list")'],
  ['[a)', '(invalid-read-syntax ") or . in a vector")'],
  [String.raw`')`, '(invalid-read-syntax ")")'],
  [String.raw`'`, '(end-of-file)'],
  ['(identity #o9)', '(invalid-read-syntax "integer, radix 8")'],
  ['(identity #b)', '(invalid-read-syntax "integer, radix 2")'],
  [']', '(invalid-read-syntax "]")'],
  [String.raw`(identity "\u12")`, String.raw`(error "Non-hex character used for Unicode escape: \" (34)")`],
  ['(format "%" )', '(error "Format string ends in middle of format specifier")'],
  ['(format "ab%")', '(error "Format string ends in middle of format specifier")'],
  ['(format "%z")', '(error "Not enough arguments for format string")'],
  ['(format "%z" 1)', '(error "Invalid format operation %z")'],
  ['(format "%s%z" 1)', '(error "Not enough arguments for format string")'],
  ['(format "%s%z" 1 2)', '(error "Invalid format operation %z")'],
  [String.raw`(identity 'a'b)`, '(wrong-number-of-arguments identity 2)'],
  ['(identity #x)', '(invalid-read-syntax "integer, radix 16")'],
  ['(identity #xg)', '(invalid-read-syntax "integer, radix 16")'],
  ['(identity #b102)', '(invalid-read-syntax "integer, radix 2")'],
  [String.raw`'[(a] `, '(invalid-read-syntax "] in a list")'],
  ['(identity (a b])', '(invalid-read-syntax "] in a list")'],
  ['(< 1 2 "a")', '(wrong-type-argument number-or-marker-p "a")'],
  ['(> 1 "a")', '(wrong-type-argument number-or-marker-p "a")'],
  ['(< "a" 1)', '(wrong-type-argument number-or-marker-p "a")'],
]

/** Forms passepartout refuses (Emacs evaluates them, or fails otherwise), and what the reason names. */
const REFUSED: [form: string, reason: string][] = [
  ['(shell-command-to-string "ls")', 'the function shell-command-to-string '],
  ['(concat (getenv "HOME") "/x")', 'the function getenv '],
  ['(expand-file-name "lisp/config.el" user-emacs-directory)', 'the variable user-emacs-directory '],
  ['(concat (org-entry-get nil "PRJ-DIR" t) "MWE1.py")', 'the function org-entry-get '],
  ['(expand-file-name "x" (locate-dominating-file default-directory ".git"))', 'the function locate-dominating-file '],
  ['(concat my-server ".config/service.conf")', 'the variable my-server '],
  ['(format "%5s" "a")', 'format specification'],
  ['(format "%S" "a")', 'format specification'],
  ['(expand-file-name "~bob/x")', String.raw`user's home`],
  ['(file-name-directory "/ssh:host:/a/b")', 'file-name handler'],
  ['(expand-file-name "/:/a/../b")', 'file-name handler'],
  ['((lambda (x) x) 1)', 'anonymous functions'],
  [String.raw`(concat '(?a))`, 'character literals'],
  [String.raw`(concat "\xff")`, 'raw byte'],
  ['(identity #s(a))', 'reader syntax #'],
  ['`(a ,b)', 'backquote with'],
  ['(identity 99999999999999999999)', 'larger than'],
  [String.raw`'(a . b)`, 'dotted pairs'],
  [String.raw`(identity foo\ bar)`, 'backslash escape'],
  ['(identity 1.0e+INF)', 'not among the numbers'],
  [String.raw`'#1=a`, 'reader syntax #'],
  [String.raw`'"\M-a"`, 'not supported by passepartout'],
  [String.raw`'"\x110000"`, 'beyond Unicode'],
  [String.raw`'"\ud800"`, 'raw byte'],
  [String.raw`'"\N{LATIN SMALL LETTER E WITH ACUTE}"`, 'not supported by passepartout'],
  [String.raw`'(a . (b))`, 'dotted pairs'],
  ['(if (spacemacs/system-is-mac) "mac-gtd.el" "no")', 'the function spacemacs/system-is-mac '],
  [String.raw`'"\177\200"`, 'raw byte'],
  [String.raw`'"\x7f\x80"`, 'raw byte'],
  [String.raw`'"é\xe9"`, 'raw byte'],
  [String.raw`'"\xff"`, 'raw byte'],
  [String.raw`(concat '(4194303))`, 'raw byte'],
  [String.raw`(concat '(1114112))`, 'raw byte'],
  ['(concat [55296])', 'raw byte'],
  [String.raw`'"\xe9"`, 'raw byte'],
  [String.raw`'(a b . c)`, 'dotted pairs'],
  [String.raw`'[a . b]`, 'dotted pairs'],
  ['(buffer-file-name (current-buffer))', 'the function current-buffer '],
  [String.raw`'sym\.bol`, 'backslash escape'],
  [String.raw`'?`, 'character literals'],
  [String.raw`'\,`, 'backslash escape'],
  ["'(\\` a)", 'backslash escape'],
  [String.raw`(identity 'a\ b)`, 'backslash escape'],
  ['(list 1)', 'the function list '],
  ['(format "%d" 1e20)', '%d of the float'],
  ['(format "%d" 0.0e+NaN)', 'not among the numbers'],
  ['(format "%i" 1)', 'format specification'],
  ['(format "%c" 97)', 'format specification'],
  ['(format "%x" 255)', 'format specification'],
  ['(format "%-s" "a")', 'format specification'],
  ['(format "%1$s" "a")', 'format specification'],
  ['(expand-file-name "/ssh:x")', 'file-name handler'],
  ['(expand-file-name "ssh:x" "/")', 'file-name handler'],
  [String.raw`'("a" . "b")`, 'dotted pairs'],
  [String.raw`'.`, 'dotted pairs'],
  ['(identity .)', 'dotted pairs'],
  [String.raw`'(1 . 2 . 3)`, 'dotted pairs'],
  ['(identity #)', 'reader syntax #'],
  ['(identity #d10)', 'reader syntax #'],
  ['(> 0.0e+NaN 1)', 'not among the numbers'],
]

/** `~` with unusual HOMEs: the prefix keeps "/" and "//" whole, then "//" survives only at the start. */
const HOMES: [home: string, form: string, printed: string][] = [
  ['/', '(expand-file-name "~/x")', '"//x"'],
  ['/', '(expand-file-name "~")', '"/"'],
  ['/', '(expand-file-name "~/")', '"//"'],
  ['/', '(expand-file-name "a" "~/b")', '"//b/a"'],
  ['//', '(expand-file-name "~/x")', '"/x"'],
  ['//', '(expand-file-name "~/")', '"/"'],
  ['/home/bob/', '(expand-file-name "~/x")', '"/home/bob/x"'],
  ['/home/bob/./x/..', '(expand-file-name "~")', '"/home/bob"'],
]

/** What an evaluation gives, in the shape Emacs's answers have. */
function answer(evaluation: Evaluation): EmacsAnswer | {refused: string} {
  if (evaluation.kind === 'value') return {value: printDatum(evaluation.value)}
  if (evaluation.kind === 'error') return {error: evaluation.error}
  return {refused: evaluation.reason}
}

describe('evaluating header-argument forms as Emacs 28.2 does', () => {
  it.each(VALUES)('%s', (form, printed) => {
    expect(answer(evaluateLisp(form, CONTEXT))).toEqual({value: printed})
  })

  it.each(ERRORS)('%s fails as in Emacs', (form, error) => {
    expect(answer(evaluateLisp(form, CONTEXT))).toEqual({error})
  })

  it.each(REFUSED)('%s is refused, naming what passepartout does not evaluate', (form, reason) => {
    const evaluation = evaluateLisp(form, CONTEXT)
    expect(evaluation.kind).toBe('refused')
    expect(evaluation.kind === 'refused' && evaluation.reason).toContain(reason)
  })

  it.each(HOMES)('HOME=%s: %s', (home, form, printed) => {
    expect(answer(evaluateLisp(form, {...CONTEXT, home}))).toEqual({value: printed})
  })

  it('refuses ~ when HOME is unset or relative, as Emacs would then ask the password database or its working folder', () => {
    for (const home of [undefined, '', 'relative/home']) {
      expect(answer(evaluateLisp('(expand-file-name "~/x")', {...CONTEXT, home}))).toEqual({refused: expect.stringContaining('HOME')})
    }
    expect(answer(evaluateLisp('(expand-file-name "/abs/x")', {...CONTEXT, home: undefined}))).toEqual({value: '"/abs/x"'})
  })

  it('takes system-type from the platform', () => {
    expect([systemTypeOf('linux'), systemTypeOf('darwin'), systemTypeOf('win32'), systemTypeOf('haiku')]).toEqual(['gnu/linux', 'darwin', 'windows-nt', undefined])
    const form = `(if (eq system-type 'darwin) "mac.el" "other.el")`
    expect(answer(evaluateLisp(form, {...CONTEXT, systemType: 'darwin'}))).toEqual({value: '"mac.el"'})
    expect(answer(evaluateLisp(form, {...CONTEXT, systemType: undefined}))).toEqual({refused: expect.stringContaining('system-type')})
  })

  it('names the buffer after the file, as uniquify does, and refuses names of the buffers Emacs starts with', () => {
    // Recorded from org-babel-tangle-file on " x.org": uniquify drops the "|" create-file-buffer adds.
    expect(answer(evaluateLisp('(buffer-name)', {...CONTEXT, file: '/tmp/ x.org'}))).toEqual({value: '" x.org"'})
    expect(answer(evaluateLisp('(buffer-name)', {...CONTEXT, file: '/tmp/*scratch*'}))).toEqual({refused: expect.stringContaining('*scratch*')})
  })

  it('refuses what needs the Org file when none is known', () => {
    for (const form of ['(buffer-file-name)', 'buffer-file-name', '(buffer-name)', 'default-directory', '(file-name-base)', '(expand-file-name "x")']) {
      expect(answer(evaluateLisp(form, undefined))).toEqual({refused: expect.stringContaining("the Org file's name")})
    }
    expect(answer(evaluateLisp('(concat "a" "b")', undefined))).toEqual({value: '"ab"'})
  })
})

describe('header arguments with Lisp forms', () => {
  it('carries strings, numbers and nil, keeps other values as forms, and throws what Emacs signals', () => {
    expect(babelRead('(concat (file-name-sans-extension (buffer-file-name)) ".el")', true, CONTEXT)).toEqual({kind: 'string', value: '/home/alice/notes/config.el'})
    expect(babelRead('(identity #o755)', true, CONTEXT)).toEqual({kind: 'number', value: 493, integer: true})
    expect(babelRead('(when nil "x")', true, CONTEXT)).toEqual({kind: 'nil'})
    expect(babelRead("(eq system-type 'gnu/linux)", true, CONTEXT)).toEqual({kind: 'lisp', source: "(eq system-type 'gnu/linux)", reason: expect.stringContaining('its value is t')})
    expect(babelRead('(shell-command-to-string "id")', true, CONTEXT)).toEqual({
      kind: 'lisp',
      source: '(shell-command-to-string "id")',
      reason: 'the function shell-command-to-string is not among those passepartout evaluates',
    })
    expect(() => babelRead('(concat 1)', true, CONTEXT)).toThrow(LispEvalError)
    expect(() => babelRead('(concat 1)', true, CONTEXT)).toThrow('(wrong-type-argument sequencep 1)')
    expect(babelRead('(concat 1)', false, CONTEXT)).toEqual({kind: 'string', value: '(concat 1)'})
  })

  it('evaluates every argument of a header line in the Org file\'s context', () => {
    const args = parseHeaderArguments(':tangle (concat (file-name-base) ".el") :tangle-mode (identity #o600) :mkdirp (if (eq system-type \'darwin) "no" "yes")', true, CONTEXT)
    expect(args.map((arg) => [arg.name, arg.value])).toEqual([
      [':tangle', {kind: 'string', value: 'config.el'}],
      [':tangle-mode', {kind: 'number', value: 384, integer: true}],
      [':mkdirp', {kind: 'string', value: 'yes'}],
    ])
  })
})

describe('guards', () => {
  // The bounds are on the work done, so they count this process's CPU time: on a loaded machine the clock on the
  // wall runs on while other processes have the cores.
  const cpuMs = () => {
    const {user, system} = process.cpuUsage()
    return (user + system) / 1000
  }
  const nest = (depth: number, open: string, close: string, inner: string) => `${open.repeat(depth)}${inner}${close.repeat(depth)}`

  it(`evaluates forms nested ${FORM_NESTING_LIMIT} deep and refuses deeper ones before reading them`, () => {
    expect(answer(evaluateLisp(nest(FORM_NESTING_LIMIT, '(identity ', ')', '"x"'), CONTEXT))).toEqual({value: '"x"'})
    expect(answer(evaluateLisp(`'${nest(FORM_NESTING_LIMIT - 1, '(', ')', 'a')}`, CONTEXT))).toEqual({value: nest(FORM_NESTING_LIMIT - 1, '(', ')', 'a')})
    for (const form of [nest(FORM_NESTING_LIMIT + 1, '(identity ', ')', '"x"'), `'${nest(FORM_NESTING_LIMIT, '(', ')', 'a')}`, "'".repeat(FORM_NESTING_LIMIT + 1) + 'a']) {
      expect(answer(evaluateLisp(form, CONTEXT))).toEqual({refused: expect.stringContaining(`deeper than ${FORM_NESTING_LIMIT}`)})
    }
  })

  it('reads 100,000 nested openings without overflowing the stack, in bounded time', () => {
    const started = cpuMs()
    for (const form of ['('.repeat(100_000), nest(100_000, '(', ')', ''), '['.repeat(100_000), "'".repeat(100_000), `(concat ${'('.repeat(100_000)}`]) {
      expect(evaluateLisp(form, CONTEXT).kind).toBe('refused')
    }
    expect(cpuMs() - started).toBeLessThan(2000)
  })

  it('evaluates megabyte-sized strings and long argument lists in linear time', () => {
    const started = cpuMs()
    const big = 'a'.repeat(1_000_000)
    expect(babelRead(`(concat "${big}" ".el")`, true, CONTEXT)).toEqual({kind: 'string', value: `${big}.el`})
    expect(parseHeaderArguments(`:tangle (format "%s%s" default-directory "${big}")`, true, CONTEXT)[0]!.value).toEqual({kind: 'string', value: `/home/alice/notes/${big}`})
    const versions = `x${'.~'.repeat(250_000)}1~`
    // As "x.~.~.~.~1~" gives "x.~": the versions cut at the last ".~", then the extension at the dot before.
    expect(babelRead(`(file-name-sans-extension "${versions}")`, true, CONTEXT)).toEqual({kind: 'string', value: `x${'.~'.repeat(249_997)}`})
    expect(babelRead(`(expand-file-name "${'a/../'.repeat(200_000)}b")`, true, CONTEXT)).toEqual({kind: 'string', value: '/home/alice/notes/b'})
    expect(babelRead(`(concat ${'"a" '.repeat(100_000)})`, true, CONTEXT)).toEqual({kind: 'string', value: 'a'.repeat(100_000)})
    expect(babelRead(`(format "${'%s'.repeat(50_000)}" ${'"b" '.repeat(50_000)})`, true, CONTEXT)).toEqual({kind: 'string', value: 'b'.repeat(50_000)})
    expect(cpuMs() - started).toBeLessThan(3000)
  })
})

describe.skipIf(!emacsAvailable())('the same forms in Emacs 28', () => {
  it('give the same values and errors', () => {
    const forms = [...VALUES, ...ERRORS].map(([form]) => form)
    // Emacs runs here, so system-type is this platform's.
    const context = {...CONTEXT, systemType: systemTypeOf(process.platform)}
    const emacs = evaluateWithEmacs(forms, FILE, HOME)
    expect(forms.map((form) => [form, answer(evaluateLisp(form, context))])).toEqual(forms.map((form, k) => [form, emacs[k]]))
  })

  it('expand ~ with the same unusual HOMEs', () => {
    for (const home of new Set(HOMES.map(([h]) => h))) {
      const forms = HOMES.filter(([h]) => h === home).map(([, form]) => form)
      const emacs = evaluateWithEmacs(forms, FILE, home)
      expect(forms.map((form) => [form, answer(evaluateLisp(form, {...CONTEXT, home}))])).toEqual(forms.map((form, k) => [form, emacs[k]]))
    }
  })
})
