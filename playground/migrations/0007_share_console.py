# The expression console's state in shares.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('playground', '0006_share_capacity'),
    ]

    operations = [
        migrations.AddField(
            model_name='share',
            name='console',
            field=models.JSONField(blank=True, null=True),
        ),
    ]
