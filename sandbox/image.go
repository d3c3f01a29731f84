package sandbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Image is a sandbox database held in memory as it was when Server.Image took it. A sandbox
// opened with Options.Image starts from a copy of it instead of an empty database: a
// process that needs many sandboxes of one data set (a test binary) seeds it once, and
// each sandbox after the first costs a copy of the bytes.
type Image struct{ data []byte }

// Len is the image's size in bytes.
func (img *Image) Len() int { return len(img.data) }

// Image takes a copy of the database as it is now (between two writes).
func (s *Server) Image(ctx context.Context) (*Image, error) {
	s.writes.Lock()
	defer s.writes.Unlock()
	var data []byte
	err := rawConn(ctx, s.db, func(dc any) error {
		ser, ok := dc.(interface{ Serialize() ([]byte, error) })
		if !ok {
			return errors.New("the SQLite driver cannot serialize a database")
		}
		var err error
		data, err = ser.Serialize()
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("sandbox image: %w", err)
	}
	return &Image{data: data}, nil
}

// restore makes db's one connection hold a copy of img (an in-memory database).
func restore(ctx context.Context, db *sql.DB, img *Image) error {
	err := rawConn(ctx, db, func(dc any) error {
		de, ok := dc.(interface{ Deserialize([]byte) error })
		if !ok {
			return errors.New("the SQLite driver cannot load a serialized database")
		}
		return de.Deserialize(img.data) // SQLite copies the bytes: the image stays as it is
	})
	if err != nil {
		return fmt.Errorf("sandbox: open from an image: %w", err)
	}
	return nil
}

// rawConn runs f on the driver's connection of one of db's connections.
func rawConn(ctx context.Context, db *sql.DB, f func(driverConn any) error) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(f)
}
