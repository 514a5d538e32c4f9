package retrieval

import (
	"slices"
	"testing"
)

func TestIsMigration(t *testing.T) {
	tests := []struct {
		note, file string
		want       bool
	}{
		{note: "django", file: "hc/api/migrations/0112_alter_channel_kind.py", want: true},
		{note: "sequelize", file: "server/migrations/20250125031823-add-api-key-scopes.js", want: true},
		{note: "rails", file: "db/migrate/20240101000000_create_users.rb", want: true},
		{note: "flyway folder", file: "src/main/resources/db/migration/V1__init.sql", want: true},
		{note: "flyway script elsewhere", file: "src/main/resources/org/acme/sql/postgres/V7.0_2019.05.02__add_table.sql", want: true},
		{note: "alembic", file: "alembic/versions/3f2a_add_index.py", want: true},
		{note: "code that runs migrations", file: "server/utils/migrate.ts"},
		{note: "a migration package of code", file: "src/main/java/org/acme/migration/Migrator.java"},
		{note: "a versions folder of code", file: "app/versions/list.ts"},
		{note: "plain sql", file: "db/schema.sql"},
	}
	for _, tt := range tests {
		t.Run(tt.note, func(t *testing.T) {
			if got := isMigration(tt.file); got != tt.want {
				t.Errorf("isMigration(%q) = %v, want %v", tt.file, got, tt.want)
			}
		})
	}
}

// TestMigrationsRankBehindTheModels: Django migrations repeat the words of
// the model fields they altered, and a task about the field changes the
// model and the view, not a migration applied long ago; a task about
// migrations gets them back at their whole score.
func TestMigrationsRankBehindTheModels(t *testing.T) {
	migration := "hc/api/migrations/0112_alter_channel_kind.py"
	ix := indexFiles(t, map[string]string{
		"hc/api/models.py": `from django.db import models

CHANNEL_KINDS = (("email", "Email"), ("matrix", "Matrix"))


class Channel(models.Model):
    kind = models.CharField(max_length=20, choices=CHANNEL_KINDS)

    def matrix_room(self):
        return self.value
`,
		migration: `from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("api", "0111_alter_channel_kind")]
    operations = [
        migrations.AlterField(
            model_name="channel",
            name="kind",
            field=models.CharField(choices=[("email", "Email"), ("matrix", "Matrix")], max_length=20),
        ),
    ]
`,
		"hc/front/views.py": `from hc.api.models import Channel


def channel_kind(request, code):
    channel = Channel.objects.get(code=code)
    return channel.kind
`,
	})
	got := files(Rank(ix, Query{Prompt: "Show the matrix channel kind on the details page"}))
	at := slices.Index(got, migration)
	if at >= 0 && (at < slices.Index(got, "hc/api/models.py") || at < slices.Index(got, "hc/front/views.py")) {
		t.Errorf("rank = %v, want the model and the view before the migration", got)
	}
	got = files(Rank(ix, Query{Prompt: "Squash the channel kind migrations"}))
	if len(got) == 0 || got[0] != migration {
		t.Errorf("a task about migrations ranks %v, want the migration first", got)
	}
}
