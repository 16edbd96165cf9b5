package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Flags behave alike in every command: an enumerated value is matched
// without regard to case and stored in its canonical spelling, a bad value
// is reported in our words (never strconv's), and the terminal switches
// (--color, --progress) take their value only after "=", so a bare switch
// never swallows the argument after it.

// enumValue is a pflag.Value holding one of a fixed set of words.
type enumValue struct {
	p       *string
	choices []string
	eqOnly  bool // the value must be joined with "="; see enumFlag
}

// A bare eqOnly flag hands Set its NoOptDefVal, "true": pflag's help then
// shows the flag without a value placeholder after a space (Type says
// "bool" for that), and its usage text spells the "=" form. No enum has
// "true" among its choices, so "--color=true" is refused alike.
const noValue = "true"

// errNeedsEquals is the Set error of a bare eqOnly flag.
var errNeedsEquals = errors.New("takes its value after '='")

func (e *enumValue) Set(s string) error {
	if e.eqOnly && s == noValue {
		return errNeedsEquals
	}
	for _, c := range e.choices {
		if strings.EqualFold(s, c) {
			*e.p = c
			return nil
		}
	}
	return fmt.Errorf("want %s", oneOf(e.choices))
}

func (e *enumValue) String() string { return *e.p }

// Type is what the help shows after the flag: the choices ("--format
// text|json"), or nothing for an eqOnly flag, whose usage spells its
// "=" form (pflag shows no placeholder for a "bool").
func (e *enumValue) Type() string {
	if e.eqOnly {
		return "bool" // see noValue
	}
	return strings.Join(e.choices, "|")
}

// enumFlag registers --name on f with the given choices (stored in the
// spelling given here). The root offers every enum's choices to shell
// completion (completeEnums). eqOnly flags must be written --name=VALUE:
// "--color always" would otherwise read "always" as the value of a switch
// users expect to be optional, and "--color file.log" would take the file.
func enumFlag(f *pflag.FlagSet, p *string, name, def string, choices []string, eqOnly bool, usage string) {
	*p = def
	f.Var(&enumValue{p: p, choices: choices, eqOnly: eqOnly}, name, usage)
	if eqOnly {
		f.Lookup(name).NoOptDefVal = noValue
	}
}

// completeEnums offers the choices of every enum flag of cmd and its
// subcommands to shell completion.
func completeEnums(cmd *cobra.Command) {
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if v, ok := f.Value.(*enumValue); ok {
			_ = cmd.RegisterFlagCompletionFunc(f.Name, cobra.FixedCompletions(v.choices, cobra.ShellCompDirectiveNoFileComp))
		}
	})
	for _, c := range cmd.Commands() {
		completeEnums(c)
	}
}

// oneOf joins choices as "a, b or c".
func oneOf(choices []string) string {
	switch len(choices) {
	case 0:
		return ""
	case 1:
		return choices[0]
	}
	return strings.Join(choices[:len(choices)-1], ", ") + " or " + choices[len(choices)-1]
}

// flagName is how a flag is named in messages: --name, or -j/--jobs.
func flagName(f *pflag.Flag) string {
	if f.Shorthand != "" {
		return "-" + f.Shorthand + "/--" + f.Name
	}
	return "--" + f.Name
}

// flagError rewrites pflag's errors in the project's words; it is the
// root's FlagErrorFunc, which every subcommand inherits.
func flagError(c *cobra.Command, err error) error {
	var (
		inv *pflag.InvalidValueError
		req *pflag.ValueRequiredError
		ne  *pflag.NotExistError
	)
	switch {
	case errors.As(err, &inv):
		f := inv.GetFlag()
		if errors.Is(err, errNeedsEquals) {
			v := f.Value.(*enumValue)
			err = fmt.Errorf("%s %v: %s", flagName(f), errNeedsEquals, eqForms(f.Name, v.choices))
			break
		}
		var num *strconv.NumError
		if errors.As(err, &num) {
			what := "a whole number"
			if errors.Is(num.Err, strconv.ErrRange) {
				what = "a whole number in range"
			}
			if _, ok := f.Value.(*enumValue); !ok && f.Value.Type() == "bool" {
				what = "true or false"
			}
			err = fmt.Errorf("%s %q: want %s", flagName(f), inv.GetValue(), what)
			break
		}
		err = fmt.Errorf("%s %q: %v", flagName(f), inv.GetValue(), errors.Unwrap(err))
	case errors.As(err, &req):
		f := req.GetFlag()
		if v, ok := f.Value.(*enumValue); ok {
			err = fmt.Errorf("%s needs a value: %s", flagName(f), oneOf(v.choices))
		} else {
			err = fmt.Errorf("%s needs a value", flagName(f))
		}
	case errors.As(err, &ne):
		err = fmt.Errorf("%v (see %s --help)", err, c.CommandPath())
	}
	return &exitError{code: exitUsage, err: err}
}

// eqForms spells the accepted forms of an eqOnly flag: "--color=auto,
// --color=always or --color=never".
func eqForms(name string, choices []string) string {
	forms := make([]string, len(choices))
	for i, c := range choices {
		forms[i] = "--" + name + "=" + c
	}
	return oneOf(forms)
}

// Positional-argument checks in the project's words (cobra's say
// "accepts 1 arg(s), received 0").

// exactlyOne wants one argument, named what.
func exactlyOne(what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) == 0:
			return usageErr(cmd, "needs %s", what)
		case len(args) > 1:
			return usageErr(cmd, "takes a single argument, %s; got %d", what, len(args))
		}
		return nil
	}
}

// atLeastOne wants one argument or more, named what.
func atLeastOne(what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return usageErr(cmd, "needs %s", what)
		}
		return nil
	}
}

// usageErr is a usage error naming the command and its usage line.
func usageErr(cmd *cobra.Command, format string, a ...any) error {
	name := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
	return &exitError{code: exitUsage, err: fmt.Errorf("%s %s (usage: %s)", name, fmt.Sprintf(format, a...), cmd.UseLine())}
}

// groupCmd makes cmd, which only holds subcommands, print its help when
// run bare and fail as a usage error on anything else ("sanitrace lws
// bogus"), where cobra would print the help and exit 0.
func groupCmd(cmd *cobra.Command) *cobra.Command {
	cmd.Args = func(c *cobra.Command, args []string) error {
		if len(args) > 0 {
			names := make([]string, 0, len(c.Commands()))
			for _, s := range c.Commands() {
				if s.IsAvailableCommand() {
					names = append(names, s.Name())
				}
			}
			return usageErr(c, "has no command %q: want %s", args[0], oneOf(names))
		}
		return nil
	}
	cmd.RunE = func(c *cobra.Command, args []string) error { return c.Help() }
	return cmd
}

// strictHelp makes cobra's help command fail as a usage error on a name
// that is no command ("sanitrace help bogus"), where cobra prints
// "Unknown help topic" and exits 0.
func strictHelp(help *cobra.Command) {
	show := help.Run
	help.Run = nil
	help.RunE = func(c *cobra.Command, args []string) error {
		if target, rest, err := c.Root().Find(args); err != nil || target == nil || len(rest) > 0 {
			return usageErr(c, "has no topic %q (the topics are the commands)", strings.Join(args, " "))
		}
		show(c, args)
		return nil
	}
}
