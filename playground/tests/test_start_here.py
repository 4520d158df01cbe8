"""The "start here" path: three gallery examples in order, listed first in the gallery, linked from the
editor's first page, each example's page pointing to the next step."""

from allocator.tests.helpers.samples import sample
from playground import start_here
from playground.models import Example, SampleInventory
from playground.tests.base import BaseTestCase


class StartHereTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        SampleInventory.objects.update_or_create_from_sample(sample("inventories", "tpu-node"), 9)
        Example.objects.update_or_create_from_sample(sample("examples", "tpu-count-too-high"), 9)

    def test_every_step_is_a_shipped_example(self):
        for slug, lesson in start_here.STEPS:
            self.assertTrue(sample("examples", slug)["title"])  # raises when no such example ships
            self.assertTrue(lesson.endswith("."))
        self.assertEqual([s.example.slug for s in start_here.steps()], [slug for slug, _ in start_here.STEPS])

    def test_the_gallery_lists_the_path_first_in_order(self):
        r = self.client.get("/examples/")
        text = r.content.decode()
        self.assertContains(r, '<h2 id="start-here-heading">New to DRA? Start here</h2>', html=False)
        positions = [text.index(f'<li id="start-here-{n}"><a href="/examples/{slug}">')
                     for n, (slug, _) in enumerate(start_here.STEPS, start=1)]
        self.assertEqual(positions, sorted(positions))
        self.assertLess(positions[-1], text.index('id="examples"'))
        # A filtered gallery shows the filter's examples only.
        self.assertNotContains(self.client.get("/examples/?tag=count"), 'id="start-here"')

    def test_the_editor_links_to_the_path(self):
        r = self.client.get("/")
        self.assertContains(r, '<a id="start-here-link" href="/examples/#start-here">Start here</a>', html=False)

    def test_each_step_leads_to_the_next(self):
        r = self.client.get("/examples/count-two-gpus")
        self.assertContains(r, "Start here, step 1 of 3:")
        self.assertContains(r, '<a href="/examples/per-container-requests">Next: Two containers, each with its own '
                               'request</a>', html=False)
        r = self.client.get("/examples/tpu-count-too-high")
        self.assertContains(r, "Start here, step 3 of 3:")
        self.assertContains(r, "That was the last step")
        self.assertNotContains(self.client.get("/examples/prioritized-list"), 'id="start-here-step"')

    def test_the_reset_chip_is_not_a_second_all(self):
        r = self.client.get("/examples/")
        self.assertContains(r, ">every example</a>", html=False)
        self.assertNotContains(r, 'aria-current="page">all</a>', html=False)
