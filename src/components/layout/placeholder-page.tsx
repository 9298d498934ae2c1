import { Construction } from "lucide-react";
import { PageHeader } from "~/components/layout/page-header";
import { Card, CardContent } from "~/components/ui/card";

/** A screen whose feature has not landed yet: says so plainly instead of pretending. */
export function PlaceholderPage({ title, description }: { title: string; description?: string }) {
  return (
    <>
      <PageHeader title={title} description={description} />
      <Card>
        <CardContent className="flex flex-col items-center gap-2 py-12 text-center text-muted-foreground">
          <Construction className="size-8" aria-hidden />
          <p>This screen is not available yet.</p>
        </CardContent>
      </Card>
    </>
  );
}
