// Box2D v3 on impact's `joint_grid` built-in scene (crates/impact-cli/src/scenes/joints.rs),
// for the comparison in docs/performance.md ("Joints: joint_grid and ragdoll_rain against
// Box2D v3 and rapier2d"). Our own code, written against Box2D's public API (box2d.h).
//
// The scene: a static body at the origin with a circle of radius 0.05; 30 x 30 dynamic circles
// of radius 0.4 (density 1, friction 0.6, sleep off), node (i, j) at (j, -i) meters; every node
// pinned to the node above it at the midpoint between them (a node of the top row to the
// static body at its own center), and to the node on its left at the midpoint. Bodies first,
// then the joints, each in impact's order (rows, then columns; per node the upper pin, then the
// left one). Both engines' defaults otherwise (gravity (0, -10), restitution 0, shapes of
// connected bodies do not collide, every other pair does).
//
// Usage: joint_grid [--steps N] [--warm-up W] [--cpu-time] (120 timed steps, impact's step
// count, after 10).

#include "joint_bench.h"

#define N 30

int main( int argc, char** argv )
{
	int steps = 120, warmUp = 10;
	if ( parse_args( argc, argv, "joint_grid", &steps, &warmUp ) != 0 )
	{
		return 2;
	}
	b2WorldId world = new_world();
	Ids ids = { 0 };

	b2BodyDef groundDef = b2DefaultBodyDef();
	b2BodyId ground = b2CreateBody( world, &groundDef );
	b2ShapeDef shape = b2DefaultShapeDef();
	b2Circle dot = { { 0.0f, 0.0f }, 0.05f };
	b2CreateCircleShape( ground, &shape, &dot );

	const float spacing = 1.0f;
	b2Circle node = { { 0.0f, 0.0f }, 0.4f };
	for ( int i = 0; i < N; ++i )
	{
		for ( int j = 0; j < N; ++j )
		{
			b2BodyId body = awake_body( world, spacing * (float)j, -spacing * (float)i );
			b2CreateCircleShape( body, &shape, &node );
			add_body( &ids, body );
		}
	}
	for ( int i = 0; i < N; ++i )
	{
		for ( int j = 0; j < N; ++j )
		{
			float x = spacing * (float)j, y = -spacing * (float)i;
			b2BodyId body = ids.bodies[N * i + j];
			if ( i == 0 )
			{
				add_joint( &ids, pin( world, ground, body, ( b2Vec2 ){ x, y }, false, 0.0f, 0.0f ) );
			}
			else
			{
				b2BodyId above = ids.bodies[N * ( i - 1 ) + j];
				add_joint( &ids, pin( world, above, body, ( b2Vec2 ){ x, y + 0.5f * spacing }, false, 0.0f, 0.0f ) );
			}
			if ( j > 0 )
			{
				b2BodyId left = ids.bodies[N * i + j - 1];
				add_joint( &ids, pin( world, left, body, ( b2Vec2 ){ x - 0.5f * spacing, y }, false, 0.0f, 0.0f ) );
			}
		}
	}

	time_steps( world, "joint_grid", warmUp, steps );

	// Sanity: the grid hangs together (the anchors' worst gap), and where it hangs.
	double sumY = 0.0;
	for ( int i = 0; i < ids.bodyCount; ++i )
	{
		sumY += b2Body_GetPosition( ids.bodies[i] ).y;
	}
	b2Vec2 last = b2Body_GetPosition( ids.bodies[ids.bodyCount - 1] );
	b2Counters counters = b2World_GetCounters( world );
	printf( "  sanity: %d bodies, %d joints; mean y %.2f; last node (%.4f, %.4f); worst joint gap %.4f m; %d contacts\n",
			ids.bodyCount + 1, ids.jointCount, sumY / (double)ids.bodyCount, last.x, last.y, worst_joint_gap( &ids ),
			counters.contactCount );

	b2DestroyWorld( world );
	free( ids.bodies );
	free( ids.joints );
	return 0;
}
