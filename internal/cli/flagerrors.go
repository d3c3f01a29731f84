package cli

import (
	"errors"
	"fmt"
	"regexp"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// flagHintAnnotation, set on a flag, replaces the generic "takes …" text of its
// invalid-value error (for example --with-token: pipe the token on stdin).
const flagHintAnnotation = "parley-invalid-value-hint"

// setFlagHint sets the text that follows "--name " when the flag is given a value it
// cannot take.
func setFlagHint(fs *pflag.FlagSet, name, hint string) {
	if err := fs.SetAnnotation(name, flagHintAnnotation, []string{hint}); err != nil {
		panic(fmt.Sprintf("flag hint for --%s: %v", name, err))
	}
}

// plainFlagName is what an unknown flag name may look like to be repeated in an error;
// anything else (a pasted token, say) is not repeated.
// parley's flag names are lower-case words joined by hyphens, without digits; a token
// almost always has digits, upper case or underscores.
var plainFlagName = regexp.MustCompile(`^[a-z]{1,20}(-[a-z]{1,20}){0,3}$`)

// flagError is the root command's FlagErrorFunc. pflag's own messages repeat what was
// typed ("invalid argument \"<value>\" for \"--with-token\" flag"); when that is a token
// given as --with-token=TOKEN, the token would be printed. This rewrites every flag
// parsing error to name the flag and what it takes, never the value given.
func flagError(cmd *cobra.Command, err error) error {
	if errors.Is(err, pflag.ErrHelp) {
		return err // cobra shows the help for it
	}
	path := cmd.CommandPath()
	var invalid *pflag.InvalidValueError
	if errors.As(err, &invalid) && invalid.GetFlag() != nil {
		f := invalid.GetFlag()
		if hint, ok := f.Annotations[flagHintAnnotation]; ok && len(hint) > 0 {
			return fmt.Errorf("--%s %s", f.Name, hint[0])
		}
		return fmt.Errorf("invalid value for --%s: it takes %s (the value given is not repeated)", f.Name, flagValueKind(f))
	}
	var notExist *pflag.NotExistError
	if errors.As(err, &notExist) {
		name := notExist.GetSpecifiedName()
		if notExist.GetSpecifiedShortnames() != "" {
			// pflag repeats the whole group ("-abc…"), which may be a pasted token.
			return fmt.Errorf("unknown shorthand flag -%s for %s (see %s --help)", name, path, path)
		}
		if plainFlagName.MatchString(name) {
			return fmt.Errorf("unknown flag --%s for %s (see %s --help)", name, path, path)
		}
		return fmt.Errorf("unknown flag for %s; what was given is not repeated (see %s --help)", path, path)
	}
	var syntax *pflag.InvalidSyntaxError
	if errors.As(err, &syntax) {
		return fmt.Errorf("bad flag syntax for %s: a flag is -x or --name; what was given is not repeated", path)
	}
	var required *pflag.ValueRequiredError
	if errors.As(err, &required) {
		// pflag's text names only the flag.
		return fmt.Errorf("%w for %s", err, path)
	}
	// Nothing else is known to leave out what was typed.
	return fmt.Errorf("the flags of %s could not be read (see %s --help)", path, path)
}

// flagValueKind says in words what a flag takes, from its pflag type.
func flagValueKind(f *pflag.Flag) string {
	switch f.Value.Type() {
	case "bool":
		return "no value, or =true or =false"
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "a whole number"
	case "float32", "float64":
		return "a number"
	case "duration":
		return "a duration such as 30s or 5m"
	case "count":
		return "no value"
	}
	return "a " + f.Value.Type() + " value"
}
