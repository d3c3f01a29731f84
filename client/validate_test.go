package client

import "testing"

func TestValidators(t *testing.T) {
	for _, tc := range []struct {
		f    func(string) error
		good []string
		bad  []string
	}{
		{ValidEmail, []string{"", "a@b.de", "anna.w+x@mail.example.com"}, []string{"a", "a@", "@b.de", "a@b", "Anna <a@b.de>", "a b@c.de", "a@b.de."}},
		{ValidCountry, []string{"", "DE", "us", " FR "}, []string{"D", "DEU", "D1", "Germany"}},
		{ValidLocale, []string{"", "de_DE", "en_US"}, []string{"de", "de-DE", "DE_de", "de_de", "deu_DE"}},
		{ValidURL, []string{"", "https://x.example", "http://x.example/a?b=c"}, []string{"x.example", "ftp://x.example", "https://", "javascript:alert(1)", "https://a b.example"}},
	} {
		for _, s := range tc.good {
			if err := tc.f(s); err != nil {
				t.Errorf("%q refused: %v", s, err)
			}
		}
		for _, s := range tc.bad {
			if tc.f(s) == nil {
				t.Errorf("%q accepted", s)
			}
		}
	}
}
